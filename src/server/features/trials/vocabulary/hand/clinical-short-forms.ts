/**
 * Short forms in clinical text: those MeSH lacks (below) and those with several senses (`AMBIGUOUS_SHORT_FORMS`).
 *
 * Short forms clinicians and trial records write for a MeSH heading that MeSH 2024 does not list among its entry
 * terms (decision 309): read, written in capitals as here, as that heading, under its own MeSH id. Each names exactly
 * its heading, in one sense in clinical text; a short form with a second common sense there ("ICH" the harmonisation
 * guidelines, "CRT" chemoradiotherapy) is not here: it stays unread unless the text defines it. "PCI" is here and among
 * the ambiguous forms: read only with support.
 */
export interface ClinicalShortForm {
  form: string;
  /** The MeSH 2024 heading's name, as MeSH writes it. */
  heading: string;
  why: string;
}

export const CLINICAL_SHORT_FORMS: readonly ClinicalShortForm[] = [
  // Heart and vessels (MeSH E04.100).
  { form: 'CABG', heading: 'Coronary Artery Bypass', why: 'coronary artery bypass grafting; MeSH lists no short form' },
  { form: 'PTCA', heading: 'Angioplasty, Balloon, Coronary', why: 'percutaneous transluminal coronary angioplasty; not in MeSH' },
  { form: 'TAVR', heading: 'Transcatheter Aortic Valve Replacement', why: 'the US short form; MeSH has the words only' },
  { form: 'TAVI', heading: 'Transcatheter Aortic Valve Replacement', why: 'the European short form (implantation) of the same operation' },
  { form: 'ECMO', heading: 'Extracorporeal Membrane Oxygenation', why: 'the name every intensive care note uses' },
  // Also prophylactic cranial irradiation in lung cancer trials: ambiguous, read only with support (a coronary
  // operation or a heart condition beside it, decision 309).
  { form: 'PCI', heading: 'Percutaneous Coronary Intervention', why: 'percutaneous coronary intervention; not in MeSH' },
  { form: 'CRRT', heading: 'Continuous Renal Replacement Therapy', why: 'continuous dialysis in intensive care; not in MeSH' },
  // Joints (MeSH E04.555).
  { form: 'TKA', heading: 'Arthroplasty, Replacement, Knee', why: 'total knee arthroplasty' },
  { form: 'TKR', heading: 'Arthroplasty, Replacement, Knee', why: 'total knee replacement' },
  // MeSH gives "THA" to tacrine, a medicine withdrawn in 2013; in criteria and notes it is the hip operation.
  { form: 'THA', heading: 'Arthroplasty, Replacement, Hip', why: 'total hip arthroplasty; tacrine stays readable by its name' },
  { form: 'THR', heading: 'Arthroplasty, Replacement, Hip', why: 'total hip replacement' },
  // Heart and vessels: conditions.
  { form: 'HCM', heading: 'Cardiomyopathy, Hypertrophic', why: 'hypertrophic cardiomyopathy; not in MeSH' },
  { form: 'DCM', heading: 'Cardiomyopathy, Dilated', why: 'dilated cardiomyopathy; not in MeSH' },
  { form: 'ARVC', heading: 'Arrhythmogenic Right Ventricular Dysplasia', why: 'arrhythmogenic right ventricular cardiomyopathy' },
  { form: 'LQTS', heading: 'Long QT Syndrome', why: 'long QT syndrome; read as the full name is' },
  { form: 'PFO', heading: 'Foramen Ovale, Patent', why: 'patent foramen ovale; not in MeSH' },
  { form: 'AVM', heading: 'Arteriovenous Malformations', why: 'arteriovenous malformation; not in MeSH' },
  { form: 'CLTI', heading: 'Chronic Limb-Threatening Ischemia', why: 'chronic limb-threatening ischaemia; not in MeSH' },
  // Brain and nerves.
  { form: 'NMOSD', heading: 'Neuromyelitis Optica', why: 'neuromyelitis optica spectrum disorder; not in MeSH' },
  { form: 'FTD', heading: 'Frontotemporal Dementia', why: 'frontotemporal dementia; not in MeSH' },
  { form: 'DLB', heading: 'Lewy Body Disease', why: 'dementia with Lewy bodies' },
  { form: 'LBD', heading: 'Lewy Body Disease', why: 'Lewy body dementia' },
  { form: 'PSP', heading: 'Supranuclear Palsy, Progressive', why: 'progressive supranuclear palsy; not in MeSH' },
  { form: 'MSA', heading: 'Multiple System Atrophy', why: 'multiple system atrophy; not in MeSH' },
  { form: 'MND', heading: 'Motor Neuron Disease', why: 'motor neuron disease; read as the full name is' },
  // Infections.
  { form: 'NTM', heading: 'Mycobacterium Infections, Nontuberculous', why: 'nontuberculous mycobacterial infection' },
  { form: 'VAP', heading: 'Pneumonia, Ventilator-Associated', why: 'ventilator-associated pneumonia; not in MeSH' },
  { form: 'VZV', heading: 'Varicella Zoster Virus Infection', why: 'varicella zoster virus (infection); not in MeSH' },
  // Liver, glands, blood.
  { form: 'AIH', heading: 'Hepatitis, Autoimmune', why: 'autoimmune hepatitis; not in MeSH' },
  { form: 'CAH', heading: 'Adrenal Hyperplasia, Congenital', why: 'congenital adrenal hyperplasia; not in MeSH' },
  { form: 'MPN', heading: 'Myeloproliferative Disorders', why: 'myeloproliferative neoplasm; read as the full name is' },
  { form: 'CMML', heading: 'Leukemia, Myelomonocytic, Chronic', why: 'chronic myelomonocytic leukaemia; not in MeSH' },
  { form: 'GVHD', heading: 'Graft vs Host Disease', why: 'graft-versus-host disease; not in MeSH' },
  { form: 'HLH', heading: 'Lymphohistiocytosis, Hemophagocytic', why: 'haemophagocytic lymphohistiocytosis; not in MeSH' },
  { form: 'PNH', heading: 'Hemoglobinuria, Paroxysmal', why: 'paroxysmal nocturnal haemoglobinuria; not in MeSH' },
  { form: 'DIPG', heading: 'Diffuse Intrinsic Pontine Glioma', why: 'diffuse intrinsic pontine glioma; not in MeSH' },
  // Other conditions.
  { form: 'axSpA', heading: 'Axial Spondyloarthritis', why: 'axial spondyloarthritis, written in mixed case' },
  { form: 'IPF', heading: 'Idiopathic Pulmonary Fibrosis', why: 'the short form of lung fibrosis trials; not in MeSH' },
  { form: 'PsA', heading: 'Arthritis, Psoriatic', why: 'psoriatic arthritis, written with a small s' },
  { form: 'OUD', heading: 'Opioid-Related Disorders', why: 'opioid use disorder (DSM-5); not in MeSH' },
  { form: 'TNBC', heading: 'Triple Negative Breast Neoplasms', why: 'triple-negative breast cancer; not in MeSH' },
  { form: 'CRPC', heading: 'Prostatic Neoplasms, Castration-Resistant', why: 'castration-resistant prostate cancer; not in MeSH' },
  // One kind of a hand entry's class, read as its own heading as its full name is (decision 346).
  { form: 'SAH', heading: 'Subarachnoid Hemorrhage', why: 'subarachnoid haemorrhage; once read as any bleeding in the brain' },
  { form: 'SDH', heading: 'Hematoma, Subdural', why: 'subdural haematoma; once read as any bleeding in the brain' },
  { form: 'IVH', heading: 'Cerebral Intraventricular Hemorrhage', why: 'intraventricular haemorrhage; once read as any bleeding in the brain' },
  { form: 'LTBI', heading: 'Latent Tuberculosis', why: 'latent tuberculosis infection; once read as any tuberculosis' },
  { form: 'AIHA', heading: 'Anemia, Hemolytic, Autoimmune', why: 'autoimmune haemolytic anaemia; once read as any haemolytic anaemia' },
  { form: 'HAE', heading: 'Angioedemas, Hereditary', why: 'hereditary angioedema; once read as any angioedema' },
  { form: 'aHUS', heading: 'Atypical Hemolytic Uremic Syndrome', why: 'atypical haemolytic uraemic syndrome, in mixed case' },
  { form: 'WPW', heading: 'Wolff-Parkinson-White Syndrome', why: 'Wolff-Parkinson-White syndrome; once read as any fast rhythm (decision 347)' },
];

/**
 * Short forms that name several things in clinical text ("MS" multiple sclerosis, mitral stenosis, mental status;
 * "PE" pulmonary embolism, physical examination; "HS" at bedtime; "RA" room air; "ALL" the word): read only when the
 * text defines them or its context supports the reading (decision 127). MeSH's own ambiguous short forms join them.
 */
export const AMBIGUOUS_SHORT_FORMS: ReadonlySet<string> = new Set([
  'MI',
  'MS',
  'PE',
  'HS',
  'RA',
  'AD',
  'MM',
  'ALL',
  'ARF',
  'CIN',
  'STD',
  'PNA',
  'FAP',
  'CA',
  'AS',
  'PD',
  'ED',
  'AAA',
  'TTP',
  // Degenerative disc disease in spine trials; MeSH lists it only for the pesticide.
  'DDD',
  // Percutaneous coronary intervention, or prophylactic cranial irradiation in lung cancer trials.
  'PCI',
]);
