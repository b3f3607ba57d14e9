/**
 * The maintained part of the criteria vocabulary: plain names (English and Spanish) for the conditions and
 * medicines that eligibility criteria name most, their synonyms and abbreviations, the MeSH heading they
 * correspond to (`meshTerm`, resolved against mesh.json and the record's own MeSH terms) and the ICD-10-CM
 * code where one fits the concept as a whole. Sources and licences: docs/decisions/022-criteria-vocabulary.md.
 *
 * Synonyms are matched case-insensitively on word boundaries, except entries in `caseSensitive` (short
 * abbreviations such as "MI" or "ALL" that are ordinary words in lower case).
 */

export type ConceptKind = 'condition' | 'medication';

export interface SynonymEntry {
  id: string;
  kind: ConceptKind;
  /** The plain name used in patient questions. */
  en: string;
  es: string;
  meshTerm?: string;
  icd10?: string;
  synonyms: string[];
  caseSensitive?: string[];
  /** Patients cannot answer it themselves (a finding on imaging, histology, a lab value). */
  clinicianOnly?: boolean;
}

const c = (id: string, en: string, es: string, synonyms: string[], extra: Partial<SynonymEntry> = {}): SynonymEntry => ({ id, kind: 'condition', en, es, synonyms, ...extra });
const m = (id: string, en: string, es: string, synonyms: string[], extra: Partial<SynonymEntry> = {}): SynonymEntry => ({ id, kind: 'medication', en, es, synonyms, ...extra });

export const SYNONYMS: SynonymEntry[] = [
  // ---- metabolic, endocrine ----
  c('type-2-diabetes', 'type 2 diabetes', 'diabetes tipo 2', ['type 2 diabetes', 'type 2 diabetes mellitus', 'type II diabetes', 'type II diabetes mellitus', 'T2 diabetes', 'non-insulin-dependent diabetes', 'diabetes mellitus type 2', 'diabetes type 2'], { meshTerm: 'Diabetes Mellitus, Type 2', icd10: 'E11', caseSensitive: ['T2DM', 'T2D', 'NIDDM', 'DM2', 'DMII', 'DM II', 'DM 2'] }),
  c('type-1-diabetes', 'type 1 diabetes', 'diabetes tipo 1', ['type 1 diabetes', 'type 1 diabetes mellitus', 'type I diabetes', 'insulin-dependent diabetes', 'diabetes mellitus type 1', 'juvenile diabetes'], { meshTerm: 'Diabetes Mellitus, Type 1', icd10: 'E10', caseSensitive: ['T1DM', 'T1D', 'IDDM'] }),
  c('diabetes', 'diabetes', 'diabetes', ['diabetes', 'diabetes mellitus', 'diabetic'], { meshTerm: 'Diabetes Mellitus', caseSensitive: ['DM'] }),
  c('obesity', 'obesity', 'obesidad', ['obesity', 'obese', 'morbid obesity', 'morbidly obese'], { meshTerm: 'Obesity', icd10: 'E66' }),
  c('hypercholesterolemia', 'high cholesterol', 'colesterol alto', ['hypercholesterolemia', 'hypercholesterolaemia', 'high cholesterol', 'familial hypercholesterolemia'], { meshTerm: 'Hypercholesterolemia', icd10: 'E78.0', caseSensitive: ['HeFH', 'HoFH'] }),
  c('hyperlipidemia', 'high blood fats (hyperlipidemia)', 'grasas altas en la sangre (hiperlipidemia)', ['hyperlipidemia', 'hyperlipidaemia', 'hyperlipemia', 'dyslipidemia', 'dyslipidaemia'], { meshTerm: 'Hyperlipidemias', icd10: 'E78.5' }),
  c('hypothyroidism', 'an underactive thyroid', 'tiroides poco activa', ['hypothyroidism', 'underactive thyroid'], { meshTerm: 'Hypothyroidism', icd10: 'E03.9' }),
  c('hyperthyroidism', 'an overactive thyroid', 'tiroides hiperactiva', ['hyperthyroidism', 'overactive thyroid', 'thyrotoxicosis'], { meshTerm: 'Hyperthyroidism', icd10: 'E05.9' }),
  c('thyroid-disease', 'thyroid disease', 'enfermedad de la tiroides', ['thyroid disease', 'thyroid disorder', 'thyroid dysfunction']),
  // ---- heart and vessels ----
  c('hypertension', 'high blood pressure', 'presión arterial alta', ['hypertension', 'high blood pressure', 'arterial hypertension', 'uncontrolled hypertension', 'uncontrolled blood pressure'], { meshTerm: 'Hypertension', icd10: 'I10', caseSensitive: ['HTN'] }),
  c('portal-hypertension', 'portal hypertension', 'hipertensión portal', ['portal hypertension'], { icd10: 'K76.6', clinicianOnly: true }),
  c('ocular-hypertension', 'high pressure in the eye', 'presión alta en el ojo', ['ocular hypertension', 'intraocular hypertension'], { icd10: 'H40.05' }),
  c('intracranial-hypertension', 'high pressure in the skull', 'presión alta dentro del cráneo', ['intracranial hypertension'], { icd10: 'G93.2', clinicianOnly: true }),
  c('gestational-diabetes', 'diabetes during pregnancy', 'diabetes durante el embarazo', ['gestational diabetes'], { icd10: 'O24.4' }),
  c('myocardial-infarction', 'a heart attack', 'un infarto (ataque al corazón)', ['myocardial infarction', 'heart attack', 'acute myocardial infarction'], { meshTerm: 'Myocardial Infarction', icd10: 'I21', caseSensitive: ['MI', 'AMI', 'STEMI', 'NSTEMI'] }),
  c('heart-failure', 'heart failure', 'insuficiencia cardíaca', ['heart failure', 'congestive heart failure', 'cardiac failure', 'cardiac insufficiency'], { meshTerm: 'Heart Failure', icd10: 'I50', caseSensitive: ['CHF', 'dCHF', 'sCHF', 'HFrEF', 'HFpEF'] }),
  c('stroke', 'a stroke', 'un derrame cerebral', ['stroke', 'cerebrovascular accident', 'cerebral infarction', 'cerebrovascular event'], { meshTerm: 'Stroke', icd10: 'I63', caseSensitive: ['CVA'] }),
  c('tia', 'a mini-stroke (TIA)', 'un mini derrame (AIT)', ['transient ischemic attack', 'transient ischaemic attack', 'mini-stroke'], { meshTerm: 'Ischemic Attack, Transient', icd10: 'G45.9', caseSensitive: ['TIA'] }),
  c('angina', 'chest pain from the heart (angina)', 'dolor de pecho por el corazón (angina)', ['angina', 'unstable angina', 'angina pectoris'], { meshTerm: 'Angina Pectoris', icd10: 'I20' }),
  c('coronary-artery-disease', 'coronary artery disease', 'enfermedad de las arterias coronarias', ['coronary artery disease', 'coronary heart disease', 'ischemic heart disease', 'ischaemic heart disease'], { meshTerm: 'Coronary Artery Disease', icd10: 'I25.10', caseSensitive: ['CAD', 'CHD'] }),
  c('atrial-fibrillation', 'atrial fibrillation', 'fibrilación auricular', ['atrial fibrillation', 'atrial flutter', 'afib', 'a-fib'], { meshTerm: 'Atrial Fibrillation', icd10: 'I48', caseSensitive: ['AF', 'AFib'] }),
  c('arrhythmia', 'an irregular heartbeat', 'un ritmo cardíaco irregular', ['arrhythmia', 'arrhythmias', 'cardiac arrhythmia', 'irregular heartbeat'], { meshTerm: 'Arrhythmias, Cardiac', icd10: 'I49.9' }),
  c('qt-prolongation', 'a long QT interval', 'un intervalo QT prolongado', ['long QT syndrome', 'QT prolongation', 'prolonged QT'], { icd10: 'I45.81', clinicianOnly: true }),
  c('cardiovascular-disease', 'heart or blood vessel disease', 'enfermedad del corazón o de los vasos sanguíneos', ['cardiovascular disease', 'cardiac disease', 'heart disease', 'cardiovascular disorder'], { meshTerm: 'Cardiovascular Diseases' }),
  c('peripheral-artery-disease', 'peripheral artery disease', 'enfermedad arterial periférica', ['peripheral artery disease', 'peripheral arterial disease', 'peripheral vascular disease'], { icd10: 'I73.9', caseSensitive: ['PAD', 'PVD'] }),
  c('dvt', 'a blood clot in a vein', 'un coágulo de sangre en una vena', ['deep vein thrombosis', 'deep venous thrombosis', 'venous thromboembolism', 'thromboembolic event', 'thromboembolism'], { meshTerm: 'Venous Thrombosis', icd10: 'I82.40', caseSensitive: ['DVT', 'VTE'] }),
  c('pulmonary-embolism', 'a blood clot in the lungs', 'un coágulo de sangre en los pulmones', ['pulmonary embolism'], { meshTerm: 'Pulmonary Embolism', icd10: 'I26', caseSensitive: ['PE'] }),
  c('pah', 'pulmonary arterial hypertension', 'hipertensión arterial pulmonar', ['pulmonary arterial hypertension', 'pulmonary hypertension', 'pulmonary htn', 'pulm htn'], { meshTerm: 'Pulmonary Arterial Hypertension', icd10: 'I27.0', caseSensitive: ['PAH'] }),
  c('chest-pain', 'chest pain', 'dolor de pecho', ['chest pain', 'chest discomfort', 'chest pressure'], { icd10: 'R07.9' }),
  c('syncope', 'fainting (syncope)', 'desmayos (síncope)', ['syncope', 'syncopal episode', 'fainting'], { icd10: 'R55' }),
  c('aortic-stenosis', 'a narrowed aortic valve (aortic stenosis)', 'una válvula aórtica estrecha (estenosis aórtica)', ['aortic stenosis', 'aortic valve stenosis'], { icd10: 'I35.0' }),
  c('mitral-valve-disease', 'a leaking or floppy mitral valve', 'una válvula mitral que no cierra bien', ['mitral regurgitation', 'mitral insufficiency', 'mitral valve regurgitation', 'mitral valve prolapse', 'mitral stenosis'], { icd10: 'I34', caseSensitive: ['MVP'] }),
  c('carotid-stenosis', 'narrowed neck arteries (carotid stenosis)', 'arterias del cuello estrechas (estenosis carotídea)', ['carotid stenosis', 'carotid artery stenosis', 'carotid artery disease', 'carotid disease'], { icd10: 'I65.2' }),
  c('intracranial-hemorrhage', 'bleeding in the brain', 'un sangrado en el cerebro', ['intracranial hemorrhage', 'intracranial haemorrhage', 'intracerebral hemorrhage', 'intracerebral haemorrhage', 'intraventricular hemorrhage', 'subarachnoid hemorrhage', 'subarachnoid haemorrhage', 'brain hemorrhage', 'brain bleed', 'cerebral hemorrhage', 'hemorrhagic stroke'], { icd10: 'I62.9', caseSensitive: ['SAH', 'IVH'] }),
  // ---- lungs ----
  c('asthma', 'asthma', 'asma', ['asthma', 'asthmatic'], { meshTerm: 'Asthma', icd10: 'J45' }),
  c('copd', 'COPD (chronic lung disease)', 'EPOC (enfermedad pulmonar crónica)', ['chronic obstructive pulmonary disease', 'chronic obstructive lung disease', 'emphysema', 'chronic bronchitis'], { meshTerm: 'Pulmonary Disease, Chronic Obstructive', icd10: 'J44', caseSensitive: ['COPD'] }),
  c('pneumonia', 'pneumonia', 'neumonía', ['pneumonia'], { meshTerm: 'Pneumonia', icd10: 'J18.9' }),
  c('tuberculosis', 'tuberculosis (TB)', 'tuberculosis (TB)', ['tuberculosis', 'latent tuberculosis', 'active tuberculosis'], { meshTerm: 'Tuberculosis', icd10: 'A15', caseSensitive: ['TB', 'LTBI'] }),
  c('interstitial-lung-disease', 'scarring of the lungs (interstitial lung disease)', 'cicatrización de los pulmones (enfermedad pulmonar intersticial)', ['interstitial lung disease', 'pulmonary fibrosis', 'pneumonitis'], { icd10: 'J84.9', caseSensitive: ['ILD'] }),
  c('sleep-apnea', 'sleep apnea', 'apnea del sueño', ['sleep apnea', 'sleep apnoea', 'obstructive sleep apnea'], { icd10: 'G47.33', caseSensitive: ['OSA'] }),
  c('covid-19', 'COVID-19', 'COVID-19', ['covid-19', 'covid', 'sars-cov-2 infection', 'sars-cov-2', 'coronavirus disease'], { meshTerm: 'COVID-19', icd10: 'U07.1' }),
  c('rsv', 'RSV infection', 'infección por VRS', ['respiratory syncytial virus', 'respiratory syncytial virus infection', 'rsv infection', 'rsv disease'], { meshTerm: 'Respiratory Syncytial Virus Infections', icd10: 'B97.4', caseSensitive: ['RSV'] }),
  c('respiratory-infection', 'a chest or airway infection', 'una infección respiratoria', ['respiratory tract infection', 'respiratory infection', 'upper respiratory tract infection', 'lower respiratory tract infection', 'acute respiratory illness'], { meshTerm: 'Respiratory Tract Infections', caseSensitive: ['URTI', 'LRTI', 'ARI'] }),
  c('influenza', 'the flu', 'la gripe', ['influenza', 'flu'], { meshTerm: 'Influenza, Human', icd10: 'J11' }),
  c('allergic-rhinitis', 'hay fever (allergic rhinitis)', 'fiebre del heno (rinitis alérgica)', ['allergic rhinitis', 'seasonal allergic rhinitis', 'hay fever'], { icd10: 'J30.9' }),
  // ---- infections ----
  c('sepsis', 'sepsis (a severe infection in the blood)', 'sepsis (una infección grave en la sangre)', ['sepsis', 'septic shock', 'septicemia', 'septicaemia', 'urosepsis'], { icd10: 'A41.9' }),
  c('urinary-tract-infection', 'a urinary tract infection', 'una infección urinaria', ['urinary tract infection', 'urinary tract infections', 'bladder infection'], { meshTerm: 'Urinary Tract Infections', icd10: 'N39.0', caseSensitive: ['UTI', 'UTIs'] }),
  c('c-difficile', 'C. difficile infection', 'infección por C. difficile', ['clostridium difficile', 'clostridioides difficile', 'clostridium difficile infection', 'clostridium difficile colitis', 'c difficile', 'c diff', 'cdiff'], { icd10: 'A04.7' }),
  c('cellulitis', 'cellulitis (a skin infection)', 'celulitis (una infección de la piel)', ['cellulitis'], { icd10: 'L03.90' }),
  c('hiv', 'HIV', 'VIH', ['human immunodeficiency virus', 'hiv infection', 'hiv-1', 'hiv'], { meshTerm: 'HIV Infections', icd10: 'B20', caseSensitive: ['HIV', 'AIDS'] }),
  c('hepatitis-b', 'hepatitis B', 'hepatitis B', ['hepatitis b', 'hepatitis b virus', 'hbv infection', 'chronic hepatitis b', 'hep b'], { meshTerm: 'Hepatitis B', icd10: 'B18.1', caseSensitive: ['HBV', 'HBsAg'] }),
  c('hepatitis-c', 'hepatitis C', 'hepatitis C', ['hepatitis c', 'hepatitis c virus', 'hcv infection', 'chronic hepatitis c', 'hep c'], { meshTerm: 'Hepatitis C', icd10: 'B18.2', caseSensitive: ['HCV'] }),
  c('infection', 'an infection that needs treatment', 'una infección que necesita tratamiento', ['active infection', 'systemic infection', 'serious infection', 'uncontrolled infection', 'infection requiring', 'acute infection', 'febrile illness', 'fever'], { meshTerm: 'Infections' }),
  // ---- kidneys, liver, gut ----
  c('chronic-kidney-disease', 'kidney disease', 'enfermedad de los riñones', ['chronic kidney disease', 'kidney disease', 'renal disease', 'renal insufficiency', 'renal impairment', 'renal failure', 'kidney failure', 'end-stage renal disease'], { meshTerm: 'Renal Insufficiency, Chronic', icd10: 'N18', caseSensitive: ['CKD', 'ESRD', 'ESKD'] }),
  c('dialysis', 'dialysis', 'diálisis', ['dialysis', 'hemodialysis', 'haemodialysis', 'peritoneal dialysis'], { icd10: 'Z99.2' }),
  c('nephrotic-syndrome', 'nephrotic syndrome', 'síndrome nefrótico', ['nephrotic syndrome'], { meshTerm: 'Nephrotic Syndrome', icd10: 'N04' }),
  c('liver-disease', 'liver disease', 'enfermedad del hígado', ['liver disease', 'hepatic disease', 'hepatic impairment', 'liver impairment', 'hepatic dysfunction'], { meshTerm: 'Liver Diseases', icd10: 'K76.9' }),
  c('cirrhosis', 'cirrhosis of the liver', 'cirrosis del hígado', ['cirrhosis', 'liver cirrhosis', 'hepatic cirrhosis'], { meshTerm: 'Liver Cirrhosis', icd10: 'K74.60' }),
  c('nash', 'fatty liver disease (NASH)', 'hígado graso (NASH)', ['nonalcoholic steatohepatitis', 'non-alcoholic steatohepatitis', 'nonalcoholic fatty liver disease', 'non-alcoholic fatty liver disease', 'fatty liver'], { meshTerm: 'Non-alcoholic Fatty Liver Disease', icd10: 'K75.81', caseSensitive: ['NASH', 'NAFLD', 'MASH', 'MASLD'] }),
  c('crohns-disease', "Crohn's disease", 'enfermedad de Crohn', ["crohn's disease", 'crohn disease', 'crohns disease'], { meshTerm: 'Crohn Disease', icd10: 'K50' }),
  c('ulcerative-colitis', 'ulcerative colitis', 'colitis ulcerosa', ['ulcerative colitis'], { meshTerm: 'Colitis, Ulcerative', icd10: 'K51', caseSensitive: ['UC'] }),
  c('ibd', 'inflammatory bowel disease', 'enfermedad inflamatoria intestinal', ['inflammatory bowel disease'], { meshTerm: 'Inflammatory Bowel Diseases', icd10: 'K50-K51', caseSensitive: ['IBD'] }),
  c('gerd', 'acid reflux (GERD)', 'reflujo ácido (ERGE)', ['gastroesophageal reflux disease', 'gastro-oesophageal reflux disease', 'gastroesophageal reflux', 'gastric reflux', 'acid reflux', 'reflux disease'], { icd10: 'K21.9', caseSensitive: ['GERD', 'GORD'] }),
  c('acute-kidney-injury', 'sudden kidney damage (acute kidney injury)', 'daño repentino de los riñones (lesión renal aguda)', ['acute kidney injury', 'acute renal failure', 'acute renal injury'], { icd10: 'N17.9', caseSensitive: ['AKI', 'ARF'] }),
  c('bph', 'an enlarged prostate (BPH)', 'próstata agrandada (HBP)', ['benign prostatic hyperplasia', 'benign prostatic hypertrophy', 'enlarged prostate', 'prostatic hyperplasia'], { icd10: 'N40', caseSensitive: ['BPH'] }),
  c('pancreatitis', 'pancreatitis', 'pancreatitis', ['pancreatitis'], { meshTerm: 'Pancreatitis', icd10: 'K85' }),
  // ---- cancer ----
  c('cancer', 'cancer', 'cáncer', ['cancer', 'malignancy', 'malignancies', 'malignant disease', 'malignant tumor', 'malignant neoplasm', 'primary malignancy', 'neoplasm'], { meshTerm: 'Neoplasms', icd10: 'C80.1' }),
  c('nsclc', 'non-small cell lung cancer', 'cáncer de pulmón de células no pequeñas', ['non-small cell lung cancer', 'non-small-cell lung cancer', 'non small cell lung cancer', 'non-small cell lung carcinoma'], { meshTerm: 'Carcinoma, Non-Small-Cell Lung', icd10: 'C34', caseSensitive: ['NSCLC'] }),
  c('sclc', 'small cell lung cancer', 'cáncer de pulmón de células pequeñas', ['small cell lung cancer', 'small-cell lung cancer', 'small cell lung carcinoma'], { meshTerm: 'Small Cell Lung Carcinoma', icd10: 'C34', caseSensitive: ['SCLC', 'ES-SCLC'] }),
  c('lung-cancer', 'lung cancer', 'cáncer de pulmón', ['lung cancer', 'lung carcinoma'], { meshTerm: 'Lung Neoplasms', icd10: 'C34' }),
  c('breast-cancer', 'breast cancer', 'cáncer de mama', ['breast cancer', 'breast carcinoma'], { meshTerm: 'Breast Neoplasms', icd10: 'C50' }),
  c('prostate-cancer', 'prostate cancer', 'cáncer de próstata', ['prostate cancer', 'prostatic cancer', 'prostate carcinoma'], { meshTerm: 'Prostatic Neoplasms', icd10: 'C61' }),
  c('colorectal-cancer', 'colorectal cancer', 'cáncer colorrectal', ['colorectal cancer', 'colon cancer', 'rectal cancer', 'colorectal carcinoma'], { meshTerm: 'Colorectal Neoplasms', icd10: 'C18-C20', caseSensitive: ['CRC', 'mCRC'] }),
  c('hepatocellular-carcinoma', 'liver cancer', 'cáncer de hígado', ['hepatocellular carcinoma', 'liver cancer', 'hepatoma'], { meshTerm: 'Carcinoma, Hepatocellular', icd10: 'C22.0', caseSensitive: ['HCC'] }),
  c('gastric-cancer', 'stomach cancer', 'cáncer de estómago', ['gastric cancer', 'stomach cancer', 'gastroesophageal junction', 'gastric adenocarcinoma'], { meshTerm: 'Stomach Neoplasms', icd10: 'C16' }),
  c('multiple-myeloma', 'multiple myeloma', 'mieloma múltiple', ['multiple myeloma', 'myeloma'], { meshTerm: 'Multiple Myeloma', icd10: 'C90.0', caseSensitive: ['MM', 'RRMM'] }),
  c('lymphoma', 'lymphoma', 'linfoma', ['lymphoma', 'non-hodgkin lymphoma', 'hodgkin lymphoma'], { meshTerm: 'Lymphoma', icd10: 'C85.9', caseSensitive: ['NHL', 'DLBCL'] }),
  c('leukemia', 'leukemia', 'leucemia', ['leukemia', 'leukaemia'], { meshTerm: 'Leukemia', icd10: 'C95.9', caseSensitive: ['AML', 'CLL', 'CML'] }),
  c('brain-metastases', 'cancer that has spread to the brain', 'cáncer que se ha extendido al cerebro', ['brain metastases', 'brain metastasis', 'cns metastases', 'leptomeningeal disease', 'leptomeningeal metastases'], { icd10: 'C79.31', clinicianOnly: true }),
  c('glioma', 'a brain or spinal cord tumor (glioma)', 'un tumor del cerebro o de la médula (glioma)', ['glioma', 'astrocytoma', 'anaplastic astrocytoma', 'glioblastoma', 'glioblastoma multiforme', 'oligodendroglioma', 'brain tumor', 'brain tumour'], { icd10: 'C71', caseSensitive: ['GBM'] }),
  c('thyroid-cancer', 'thyroid cancer', 'cáncer de tiroides', ['thyroid cancer', 'thyroid carcinoma', 'papillary thyroid cancer', 'papillary thyroid carcinoma', 'follicular thyroid cancer', 'medullary thyroid cancer'], { icd10: 'C73' }),
  c('pancreatic-cancer', 'pancreatic cancer', 'cáncer de páncreas', ['pancreatic cancer', 'pancreatic adenocarcinoma', 'pancreatic carcinoma', 'pancreatic ductal adenocarcinoma'], { icd10: 'C25', caseSensitive: ['PDAC'] }),
  c('ovarian-cancer', 'ovarian cancer', 'cáncer de ovario', ['ovarian cancer', 'ovarian carcinoma'], { icd10: 'C56' }),
  c('cervical-cancer', 'cervical cancer', 'cáncer de cuello uterino', ['cervical cancer', 'cervical carcinoma', 'cancer of the cervix'], { icd10: 'C53' }),
  c('endometrial-cancer', 'endometrial (uterine) cancer', 'cáncer de endometrio (útero)', ['endometrial cancer', 'endometrial carcinoma', 'uterine cancer'], { icd10: 'C54.1' }),
  c('bladder-cancer', 'bladder cancer', 'cáncer de vejiga', ['bladder cancer', 'urothelial carcinoma', 'urothelial cancer'], { icd10: 'C67' }),
  c('kidney-cancer', 'kidney cancer', 'cáncer de riñón', ['kidney cancer', 'renal cell carcinoma', 'renal cancer'], { icd10: 'C64', caseSensitive: ['RCC'] }),
  c('esophageal-cancer', 'esophageal cancer', 'cáncer de esófago', ['esophageal cancer', 'oesophageal cancer', 'esophageal carcinoma', 'esophageal adenocarcinoma'], { icd10: 'C15' }),
  c('thymoma', 'thymoma', 'timoma', ['thymoma', 'thymic carcinoma'], { meshTerm: 'Thymoma', icd10: 'C37' }),
  c('skin-cancer', 'skin cancer', 'cáncer de piel', ['basal cell carcinoma', 'squamous cell carcinoma of the skin', 'non-melanoma skin cancer', 'melanoma'], { icd10: 'C44' }),
  // ---- immune, skin, joints ----
  c('autoimmune-disease', 'an autoimmune disease', 'una enfermedad autoinmune', ['autoimmune disease', 'autoimmune disorder', 'autoimmune condition'], { meshTerm: 'Autoimmune Diseases' }),
  c('rheumatoid-arthritis', 'rheumatoid arthritis', 'artritis reumatoide', ['rheumatoid arthritis'], { meshTerm: 'Arthritis, Rheumatoid', icd10: 'M06.9', caseSensitive: ['RA'] }),
  c('lupus', 'lupus', 'lupus', ['systemic lupus erythematosus', 'lupus'], { meshTerm: 'Lupus Erythematosus, Systemic', icd10: 'M32', caseSensitive: ['SLE'] }),
  c('systemic-sclerosis', 'scleroderma (systemic sclerosis)', 'esclerodermia (esclerosis sistémica)', ['systemic sclerosis', 'scleroderma'], { meshTerm: 'Scleroderma, Systemic', icd10: 'M34', caseSensitive: ['SSc', 'dcSSc'] }),
  c('psoriasis', 'psoriasis', 'psoriasis', ['psoriasis', 'psoriatic arthritis'], { meshTerm: 'Psoriasis', icd10: 'L40' }),
  c('atopic-dermatitis', 'eczema (atopic dermatitis)', 'eccema (dermatitis atópica)', ['atopic dermatitis', 'eczema', 'atopic eczema'], { meshTerm: 'Dermatitis, Atopic', icd10: 'L20', caseSensitive: ['AD'] }),
  c('hidradenitis-suppurativa', 'hidradenitis suppurativa', 'hidradenitis supurativa', ['hidradenitis suppurativa'], { meshTerm: 'Hidradenitis Suppurativa', icd10: 'L73.2', caseSensitive: ['HS'] }),
  c('immunodeficiency', 'a weak immune system', 'un sistema inmunitario débil', ['immunodeficiency', 'immunocompromised', 'immunosuppressed', 'immune deficiency', 'primary immunodeficiency'], { meshTerm: 'Immunologic Deficiency Syndromes', icd10: 'D84.9' }),
  c('organ-transplant', 'an organ transplant', 'un trasplante de órgano', ['organ transplant', 'solid organ transplant', 'organ transplantation', 'transplant recipient', 'bone marrow transplant', 'stem cell transplant', 'kidney transplant', 'renal transplant', 'lung transplant'], { icd10: 'Z94', caseSensitive: ['HSCT'] }),
  c('allergy', 'an allergy to medicines like this one', 'una alergia a medicamentos como este', ['hypersensitivity', 'allergy', 'allergic reaction', 'anaphylaxis', 'allergic'], { meshTerm: 'Hypersensitivity', icd10: 'T78.40' }),
  c('osteoarthritis', 'osteoarthritis', 'artrosis', ['osteoarthritis', 'degenerative joint disease', 'degenerative arthritis'], { icd10: 'M19.90', caseSensitive: ['OA', 'DJD'] }),
  c('gout', 'gout', 'gota', ['gout', 'gouty arthritis'], { icd10: 'M10.9' }),
  c('osteoporosis', 'osteoporosis', 'osteoporosis', ['osteoporosis'], { meshTerm: 'Osteoporosis', icd10: 'M81' }),
  // ---- spine, pain ----
  c('disc-herniation', 'a slipped (herniated) disc', 'una hernia de disco', ['disc herniation', 'herniated disc', 'disc displacement', 'disc prolapse', 'herniated nucleus pulposus', 'lumbar disc herniation', 'disk herniation', 'herniated disk', 'disk prolapse', 'disc hernia', 'disk hernia', 'intervertebral disc prolapse'], { meshTerm: 'Intervertebral Disc Displacement', icd10: 'M51.2' }),
  c('sciatica', 'sciatica', 'ciática', ['sciatica', 'radiculopathy', 'radicular pain'], { meshTerm: 'Sciatica', icd10: 'M54.3' }),
  c('spinal-stenosis', 'spinal stenosis', 'estenosis espinal', ['spinal stenosis', 'lumbar stenosis', 'spinal canal stenosis'], { meshTerm: 'Spinal Stenosis', icd10: 'M48.0' }),
  c('back-pain', 'back pain', 'dolor de espalda', ['back pain', 'low back pain', 'lumbar pain'], { meshTerm: 'Low Back Pain', icd10: 'M54.5' }),
  c('spine-surgery', 'back or spine surgery', 'una cirugía de espalda o columna', ['spinal surgery', 'spine surgery', 'back surgery', 'lumbar surgery'], {}),
  c('vertebral-fracture', 'a broken bone in the spine', 'una fractura de columna', ['vertebral fracture', 'spinal fracture'], { icd10: 'S32.0' }),
  c('migraine', 'migraine', 'migraña', ['migraine', 'migraines'], { meshTerm: 'Migraine Disorders', icd10: 'G43' }),
  c('fibromyalgia', 'fibromyalgia', 'fibromialgia', ['fibromyalgia'], { icd10: 'M79.7' }),
  c('glaucoma', 'glaucoma', 'glaucoma', ['glaucoma'], { meshTerm: 'Glaucoma', icd10: 'H40' }),
  // ---- brain, mind ----
  c('epilepsy', 'epilepsy or seizures', 'epilepsia o convulsiones', ['epilepsy', 'seizure', 'seizures', 'seizure disorder', 'convulsions'], { meshTerm: 'Epilepsy', icd10: 'G40' }),
  c('dementia', 'dementia', 'demencia', ['dementia', "alzheimer's disease", 'alzheimer disease', 'cognitive impairment'], { meshTerm: 'Dementia', icd10: 'F03' }),
  c('parkinsons', "Parkinson's disease", 'enfermedad de Parkinson', ["parkinson's disease", 'parkinson disease'], { meshTerm: 'Parkinson Disease', icd10: 'G20' }),
  c('multiple-sclerosis', 'multiple sclerosis', 'esclerosis múltiple', ['multiple sclerosis'], { meshTerm: 'Multiple Sclerosis', icd10: 'G35', caseSensitive: ['MS'] }),
  c('depression', 'depression', 'depresión', ['depression', 'major depressive disorder', 'depressive disorder'], { meshTerm: 'Depressive Disorder', icd10: 'F32', caseSensitive: ['MDD'] }),
  c('bipolar', 'bipolar disorder', 'trastorno bipolar', ['bipolar disorder', 'bipolar'], { meshTerm: 'Bipolar Disorder', icd10: 'F31' }),
  c('schizophrenia', 'schizophrenia', 'esquizofrenia', ['schizophrenia', 'psychosis', 'psychotic disorder'], { meshTerm: 'Schizophrenia', icd10: 'F20' }),
  c('anxiety', 'an anxiety disorder', 'un trastorno de ansiedad', ['anxiety disorder', 'generalized anxiety disorder', 'anxiety'], { meshTerm: 'Anxiety Disorders', icd10: 'F41' }),
  c('psychiatric-disorder', 'a mental health condition', 'un problema de salud mental', ['psychiatric disorder', 'psychiatric illness', 'psychiatric disease', 'mental illness', 'mental disorder', 'psychiatric condition'], { meshTerm: 'Mental Disorders' }),
  c('suicidal', 'thoughts of suicide', 'pensamientos de suicidio', ['suicidal ideation', 'suicidal behavior', 'suicidal behaviour', 'suicide attempt'], { icd10: 'R45.851' }),
  c('substance-abuse', 'alcohol or drug misuse', 'abuso de alcohol o drogas', ['substance abuse', 'drug abuse', 'alcohol abuse', 'substance use disorder', 'alcohol dependence', 'drug dependence', 'alcoholism', 'illicit drug use', 'drug addiction', 'alcohol use disorder'], { icd10: 'F10-F19' }),
  // ---- blood ----
  c('anemia', 'anemia', 'anemia', ['anemia', 'anaemia'], { meshTerm: 'Anemia', icd10: 'D64.9' }),
  c('sickle-cell', 'sickle cell disease', 'anemia de células falciformes', ['sickle cell disease', 'sickle cell anemia', 'sickle cell anaemia'], { meshTerm: 'Anemia, Sickle Cell', icd10: 'D57' }),
  c('bleeding-disorder', 'a bleeding disorder', 'un trastorno de sangrado', ['bleeding disorder', 'coagulopathy', 'hemophilia', 'haemophilia', 'bleeding diathesis', 'coagulation disorder'], { meshTerm: 'Hemorrhagic Disorders', icd10: 'D68.9' }),
  c('thrombocytopenia', 'a low platelet count', 'plaquetas bajas', ['thrombocytopenia'], { meshTerm: 'Thrombocytopenia', icd10: 'D69.6', clinicianOnly: true }),

  // ---- medicines and therapy classes ----
  m('insulin', 'insulin', 'insulina', ['insulin', 'insulin therapy']),
  m('metformin', 'metformin', 'metformina', ['metformin']),
  m('glp1', 'a GLP-1 medicine (such as semaglutide)', 'un medicamento GLP-1 (como semaglutida)', ['glp-1 receptor agonist', 'glp-1 ra', 'glp-1 agonist', 'semaglutide', 'liraglutide', 'dulaglutide', 'tirzepatide', 'exenatide']),
  m('sglt2', 'an SGLT2 medicine (such as empagliflozin)', 'un medicamento SGLT2 (como empagliflozina)', ['sglt2 inhibitor', 'sglt-2 inhibitor', 'empagliflozin', 'dapagliflozin', 'canagliflozin']),
  m('systemic-corticosteroids', 'steroid pills or injections (such as prednisone)', 'esteroides en pastillas o inyecciones (como prednisona)', ['systemic corticosteroids', 'systemic steroids', 'oral corticosteroids', 'oral steroids', 'systemic glucocorticoids', 'prednisone', 'prednisolone', 'methylprednisolone', 'dexamethasone', 'corticosteroids', 'glucocorticoids', 'steroids', 'corticosteroid'], { meshTerm: 'Glucocorticoids' }),
  m('inhaled-corticosteroids', 'a steroid inhaler', 'un inhalador con esteroides', ['inhaled corticosteroid', 'inhaled corticosteroids', 'inhaled steroids', 'fluticasone', 'budesonide', 'beclomethasone'], { caseSensitive: ['ICS'] }),
  m('bronchodilators', 'a long-acting inhaler (bronchodilator)', 'un inhalador de acción prolongada (broncodilatador)', ['long-acting beta agonist', 'long-acting beta-agonist', 'long-acting muscarinic antagonist', 'bronchodilator', 'salmeterol', 'formoterol', 'tiotropium'], { caseSensitive: ['LABA', 'LAMA', 'SABA'] }),
  m('biologics', 'a biologic medicine (injection or infusion)', 'un medicamento biológico (inyección o infusión)', ['biologic therapy', 'biologic agent', 'biologics', 'biological therapy', 'monoclonal antibody', 'monoclonal antibodies', 'omalizumab', 'mepolizumab', 'benralizumab', 'dupilumab', 'tezepelumab']),
  m('immunosuppressants', 'medicines that weaken the immune system', 'medicamentos que debilitan el sistema inmunitario', ['immunosuppressive therapy', 'immunosuppressive agents', 'immunosuppressants', 'immunosuppressive drugs', 'immunosuppressive medication', 'immunosuppressant', 'methotrexate', 'cyclosporine', 'ciclosporin', 'tacrolimus', 'azathioprine', 'mycophenolate']),
  m('anti-cd20', 'rituximab or a similar medicine (anti-CD20)', 'rituximab o un medicamento similar (anti-CD20)', ['rituximab', 'anti-cd20', 'ocrelizumab', 'obinutuzumab', 'ofatumumab']),
  m('jak-inhibitors', 'a JAK inhibitor (such as tofacitinib)', 'un inhibidor de JAK (como tofacitinib)', ['jak inhibitor', 'janus kinase inhibitor', 'tofacitinib', 'baricitinib', 'upadacitinib', 'abrocitinib', 'ruxolitinib'], { meshTerm: 'Janus Kinase Inhibitors' }),
  m('anticoagulants', 'blood thinners (such as warfarin)', 'anticoagulantes (como warfarina)', ['anticoagulant', 'anticoagulants', 'anticoagulation', 'warfarin', 'heparin', 'apixaban', 'rivaroxaban', 'dabigatran', 'edoxaban', 'blood thinners']),
  m('antiplatelets', 'antiplatelet medicines (such as clopidogrel)', 'antiagregantes (como clopidogrel)', ['antiplatelet', 'antiplatelet therapy', 'clopidogrel', 'ticagrelor', 'prasugrel', 'aspirin']),
  m('statins', 'a statin (cholesterol medicine)', 'una estatina (medicamento para el colesterol)', ['statin', 'statins', 'atorvastatin', 'rosuvastatin', 'simvastatin', 'pravastatin', 'lipid-lowering therapy', 'lipid lowering therapy']),
  m('pcsk9', 'a PCSK9 medicine (such as evolocumab)', 'un medicamento PCSK9 (como evolocumab)', ['pcsk9 inhibitor', 'evolocumab', 'alirocumab', 'inclisiran'], { caseSensitive: ['PCSK9'] }),
  m('chemotherapy', 'chemotherapy', 'quimioterapia', ['chemotherapy', 'cytotoxic therapy', 'cytotoxic chemotherapy', 'platinum-based chemotherapy', 'carboplatin', 'cisplatin', 'paclitaxel', 'docetaxel', 'irinotecan']),
  m('radiotherapy', 'radiation therapy', 'radioterapia', ['radiotherapy', 'radiation therapy', 'radiation treatment', 'radiation'], {}),
  m('immunotherapy', 'immunotherapy for cancer', 'inmunoterapia contra el cáncer', ['immune checkpoint inhibitor', 'checkpoint inhibitor', 'anti-pd-1', 'anti-pd-l1', 'anti-ctla-4', 'pembrolizumab', 'nivolumab', 'atezolizumab', 'durvalumab', 'ipilimumab', 'tremelimumab', 'tislelizumab', 'immunotherapy'], { meshTerm: 'Immune Checkpoint Inhibitors', caseSensitive: ['PD-1', 'PD-L1', 'CTLA-4'] }),
  m('anticancer-therapy', 'cancer treatment', 'tratamiento contra el cáncer', ['anticancer therapy', 'anti-cancer therapy', 'systemic anticancer therapy', 'anticancer treatment', 'antineoplastic therapy', 'targeted therapy', 'systemic therapy', 'hormonal therapy'], {}),
  m('investigational-drug', 'a medicine being tested in another study', 'un medicamento en prueba en otro estudio', ['investigational drug', 'investigational product', 'investigational agent', 'investigational medicinal product', 'investigational medication', 'investigational device', 'investigational treatment', 'experimental drug', 'experimental therapy', 'another clinical trial', 'another clinical study', 'other clinical trial', 'interventional clinical study', 'interventional study', 'study drug in another'], { caseSensitive: ['IMP'] }),
  m('vaccine', 'a vaccine', 'una vacuna', ['vaccine', 'vaccination', 'vaccines', 'immunization', 'live attenuated vaccine', 'live vaccine', 'flu shot', 'flu vaccine', 'influenza vaccine', 'influenza vaccination']),
  m('covid-vaccine', 'a COVID-19 vaccine', 'una vacuna contra el COVID-19', ['covid-19 vaccine', 'sars-cov-2 vaccine', 'covid vaccine']),
  m('rsv-vaccine', 'an RSV vaccine', 'una vacuna contra el VRS', ['rsv vaccine', 'rsv prefusion f vaccine']),
  m('immunoglobulin', 'immunoglobulin or blood products', 'inmunoglobulina o productos sanguíneos', ['immunoglobulin', 'immunoglobulins', 'blood products', 'blood transfusion', 'plasma', 'ivig', 'monoclonal antibodies against rsv', 'palivizumab', 'nirsevimab']),
  m('antibiotics', 'antibiotics', 'antibióticos', ['antibiotic', 'antibiotics', 'antibacterial', 'antimicrobial therapy', 'antimicrobials'], { meshTerm: 'Anti-Bacterial Agents' }),
  m('antivirals', 'antiviral medicines', 'medicamentos antivirales', ['antiviral', 'antivirals', 'antiviral therapy', 'remdesivir', 'nirmatrelvir', 'paxlovid', 'molnupiravir', 'oseltamivir']),
  m('opioids', 'opioid pain medicines', 'analgésicos opioides', ['opioid', 'opioids', 'opiates', 'morphine', 'oxycodone', 'tramadol', 'fentanyl', 'narcotic']),
  m('nsaids', 'anti-inflammatory pain medicines (such as ibuprofen)', 'antiinflamatorios (como ibuprofeno)', ['nsaid', 'nsaids', 'non-steroidal anti-inflammatory', 'nonsteroidal anti-inflammatory', 'ibuprofen', 'naproxen', 'diclofenac', 'celecoxib', 'loxoprofen'], { meshTerm: 'Anti-Inflammatory Agents, Non-Steroidal' }),
  m('neuropathic-pain-drugs', 'nerve pain medicines (such as gabapentin)', 'medicamentos para el dolor de nervios (como gabapentina)', ['gabapentin', 'pregabalin', 'duloxetine', 'amitriptyline']),
  m('epidural-injection', 'a spinal (epidural) injection', 'una inyección en la columna (epidural)', ['epidural steroid injection', 'epidural steroid injections', 'epidural steroids', 'epidural steroid', 'epidural injection', 'epidural injections', 'nerve block', 'facet injection']),
  m('hormonal-contraceptives', 'hormonal birth control', 'anticonceptivos hormonales', ['hormonal contraceptive', 'hormonal contraceptives', 'oral contraceptive', 'oral contraceptives', 'birth control pills']),
  m('hormone-therapy', 'hormone replacement therapy', 'terapia de reemplazo hormonal', ['hormone replacement therapy', 'estrogen therapy', 'testosterone therapy'], { caseSensitive: ['HRT'] }),
  m('cyp3a-inhibitors', 'medicines that affect how drugs are broken down (strong CYP3A inhibitors or inducers)', 'medicamentos que afectan cómo se eliminan otros (inhibidores o inductores fuertes de CYP3A)', ['strong cyp3a inhibitor', 'strong cyp3a4 inhibitor', 'cyp3a4 inhibitors', 'cyp3a inhibitors', 'cyp3a4 inducers', 'cyp3a inducers', 'strong inducers', 'strong inhibitors'], { clinicianOnly: true }),
  m('antidepressants', 'antidepressants', 'antidepresivos', ['antidepressant', 'antidepressants', 'ssri', 'ssris', 'snri']),
  m('antipsychotics', 'antipsychotic medicines', 'antipsicóticos', ['antipsychotic', 'antipsychotics', 'neuroleptics']),
  m('beta-blockers', 'a beta-blocker', 'un betabloqueante', ['beta-blocker', 'beta blocker', 'beta-blockers', 'beta blockers']),
  m('weight-loss-drugs', 'weight-loss medicines', 'medicamentos para bajar de peso', ['weight loss medication', 'anti-obesity medication', 'weight-loss medication', 'weight loss drugs', 'orlistat', 'phentermine']),
  c('bariatric-surgery', 'weight-loss surgery', 'cirugía para bajar de peso', ['bariatric surgery', 'gastric bypass', 'gastric banding', 'sleeve gastrectomy', 'obesity surgery']),
  c('major-surgery', 'major surgery', 'una cirugía mayor', ['major surgery', 'major surgical procedure', 'major surgical procedures', 'major operation']),
];
