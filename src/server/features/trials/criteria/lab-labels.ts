/**
 * The labels a measure's threshold defines (decisions 090, 243, 326, 377): "renal impairment (eGFR < 30)", "uncontrolled
 * diabetes (fasting glucose > 200 mg/dL)", "hyponatraemia (serum sodium < 130 mmol/L)". The lab reader (labs.ts) reads
 * a label with its threshold, so its words are the rule's.
 */

/**
 * The name of what a measure's threshold defines, standing right before it as its label: "renal impairment (eGFR < 30)",
 * "poorly controlled diabetes (HbA1c of 8.0% or higher)", "Class III obesity: BMI ≥ 40", "anaemia with haemoglobin < 10".
 * The threshold says what the label means, so the label's words are read with it (decision 090); joined by "or" it would
 * be an alternative, and stays unread.
 */
const RENAL_LABEL = String.raw`(?:(?:chronic|end[-\s]stage)\s+)?(?:renal|kidney)\s+(?:[a-z]+\s+)?(?:impair\w*|insufficien\w*|dysfunction|failure|abnorm\w*|lowered|reduced|decreased|disease)|(?:impaired|reduced|decreased|abnormal|poor)\s+(?:renal|kidney)\s+function`;

/**
 * "Adequate renal function, defined as creatinine ≤ 1.5 mg/dL", "adequate bone marrow function with ANC ≥ 1.5": an
 * organ's function called adequate is what the threshold after it defines (decision 243); a second measure of the
 * definition is still another measure, which a person reads.
 */
const ADEQUATE = String.raw`(?:adequate|sufficient|normal|acceptable|satisfactory)`;
const ADEQUATE_RENAL = String.raw`(?:${ADEQUATE}\s+)?(?:renal|kidney)\s+function`;
// "Liver function abnormality", "abnormal liver function tests" (decision 375): the liver's abnormality its enzymes define.
const LIVER_LABEL = String.raw`(?:${ADEQUATE}\s+)?(?:hepatic|liver)\s+function(?:\s+(?:tests?\s+)?abnormalit(?:y|ies))?|(?:hepatic|liver)\s+(?:impairment|dysfunction|insufficiency|abnormalit(?:y|ies))|(?:impaired|abnormal|poor|inadequate)\s+(?:hepatic|liver)\s+function(?:\s+tests?)?`;
const MARROW_LABEL = String.raw`(?:${ADEQUATE}\s+)?(?:bone\s+marrow|marrow|ha?ematologic(?:al)?|haematopoietic|hematopoietic)\s+(?:function|reserve|status)`;
/**
 * "Uncontrolled hypertension (SBP > 160 mmHg)", "hypotension with systolic blood pressure < 90": only a pressure called
 * uncontrolled or severe, or low, is what its threshold defines; plain "hypertension (SBP ≥ 140)" may be a treated
 * person's diagnosis whose pressure is now normal, which the threshold alone would refuse (decision 326).
 */
const BLOOD_PRESSURE_LABEL = String.raw`(?:(?:poorly|inadequately|badly|not\s+well)\s*-?\s*controlled|uncontrolled|severe)\s+(?:arterial\s+|systemic\s+)?hypertension|(?:arterial\s+|systemic\s+)?hypotension`;
/** Diabetes called uncontrolled is what its glucose or HbA1c threshold defines; plain "diabetes" is a diagnosis. */
const UNCONTROLLED_DIABETES = String.raw`(?:(?:poorly|inadequately|badly|not\s+well|in)\s*-?\s*controlled|uncontrolled)\s+(?:type\s+[12]\s+)?diabetes(?:\s+mellitus)?`;
const PROTEINURIA_LABEL = String.raw`(?:nephrotic[-\s]range\s+|significant\s+)?proteinuria`;
const DEFINED_BY: Record<string, string> = {
  eGFR: `${RENAL_LABEL}|${ADEQUATE_RENAL}`,
  'creatinine clearance': `${RENAL_LABEL}|${ADEQUATE_RENAL}`,
  creatinine: `${RENAL_LABEL}|${ADEQUATE_RENAL}`,
  bilirubin: String.raw`hyperbilirubin(?:a)?emia|${LIVER_LABEL}`,
  ALT: LIVER_LABEL,
  AST: LIVER_LABEL,
  'ALT/AST': LIVER_LABEL,
  ANC: String.raw`neutropenia|${MARROW_LABEL}`,
  platelets: String.raw`thrombocytopenia|${MARROW_LABEL}`,
  hemoglobin: String.raw`ana?emia|${MARROW_LABEL}`,
  LVEF: String.raw`${ADEQUATE}\s+(?:cardiac|heart|left\s+ventricular)\s+function|(?:left\s+ventricular|cardiac)\s+(?:systolic\s+)?dysfunction`,
  HbA1c: UNCONTROLLED_DIABETES,
  // "Uncontrolled diabetes (fasting blood glucose > 200 mg/dL)", "hyperglycaemia (random glucose > 250)" (decision 377).
  'fasting glucose': String.raw`${UNCONTROLLED_DIABETES}|hyperglyc(?:a)?emia`,
  // Not hypoglycaemia: it comes in episodes, which a glucose at screening does not show.
  'blood glucose': String.raw`${UNCONTROLLED_DIABETES}|hyperglyc(?:a)?emia`,
  BMI: String.raw`(?:class\s+(?:i{1,3}|[1-3])\s+|morbid\s+|severe\s+)?obesity|(?:morbidly\s+)?obese|underweight|overweight`,
  QTc: String.raw`(?:qtc?\s+)?(?:interval\s+)?prolongation|long\s+qt(?:\s+syndrome)?`,
  potassium: String.raw`hypo-?kal(?:a)?emia|hyper-?kal(?:a)?emia`,
  albumin: String.raw`hypoalbumin(?:a)?emia`,
  // Decision 326: a vital sign's or count's named abnormality, said by the threshold after it.
  'systolic blood pressure': BLOOD_PRESSURE_LABEL,
  'diastolic blood pressure': BLOOD_PRESSURE_LABEL,
  'heart rate': String.raw`(?:resting\s+|sinus\s+)?(?:tachycardia|bradycardia)`,
  'oxygen saturation': String.raw`hypox(?:a)?emia|hypoxia`,
  WBC: String.raw`leukopenia|leucopenia|leukocytosis`,
  lymphocytes: String.raw`lymphopenia|lymphocytopenia`,
  triglycerides: String.raw`(?:severe\s+)?hypertriglycerid(?:a)?emia`,
  'LDL-C': String.raw`hypercholesterol(?:a)?emia|hyperlipid(?:a)?emia|dyslipid(?:a)?emia`,
  INR: String.raw`coagulopathy`,
  UPCR: PROTEINURIA_LABEL,
  'urine protein': PROTEINURIA_LABEL,
  UACR: String.raw`(?:micro|macro)?albuminuria`,
  // Decision 377: an electrolyte's or a hormone's named abnormality, said by the analyte's threshold after it
  // (analyte-labs.ts): "hyponatraemia (serum sodium < 130 mmol/L)", "uncontrolled hypothyroidism (TSH > 10 mIU/L)".
  sodium: String.raw`hypo-?natr(?:a)?emia|hyper-?natr(?:a)?emia`,
  calcium: String.raw`hypo-?calc(?:a)?emia|hyper-?calc(?:a)?emia`,
  magnesium: String.raw`hypo-?magnes(?:a)?emia|hyper-?magnes(?:a)?emia`,
  phosphates: String.raw`hypo-?phosphat(?:a)?emia|hyper-?phosphat(?:a)?emia`,
  'uric acid': String.raw`hyper-?uric(?:a)?emia`,
  thyrotropin: String.raw`(?:(?:poorly|inadequately|not\s+well)\s*-?\s*controlled|uncontrolled)\s+(?:hypo|hyper)thyroidism|(?:uncontrolled\s+)?thyroid\s+dysfunction`,
};

export const DEFINED_BY_BEFORE = new Map(
  Object.entries(DEFINED_BY).map(([measure, label]) => [
    measure,
    new RegExp(
      String.raw`(?:^|[^\w\s-]|\b(?:with|has|have|having|known|the)\s)\s*((?:(?:mild|moderate|severe|significant)\s+(?:(?:or|to)\s+(?:moderate|severe)\s+)?)?(?:${label}))(?:\s*(?:\(|:|,|[-–]|\bwith\b|\bdefined\s+(?:as|by)\b|\bmarked\s+by\b|\bi\.e\.,?|\bas\s+(?:defined|evidenced|measured)\s+by\b))+\s*(?:an?\s+|the\s+)?(?:(?:calculated|estimated|measured)\s+)?(?:(?:serum|plasma|blood)\s+)?$`,
      'i',
    ),
  ]),
);
