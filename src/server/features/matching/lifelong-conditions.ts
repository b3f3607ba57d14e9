import { underHeadings } from './concept-hierarchy';

/**
 * Conditions a person keeps once diagnosed (decision 164): "history of hypertension", "PMH: type 2 diabetes", "h/o
 * CHF" say the person has it, not that it is over. Only lifelong diagnoses are listed; ones that often resolve or
 * come and go (asthma, depression, migraine, obesity) stay "history" when a note writes "history of". Each heading
 * covers its forms in MeSH's tree (type 2 diabetes is diabetes). Read by the note reader for a bare "history of" /
 * "PMH" / "h/o" only; "previous", "s/p", "resolved", "2 years ago" still say it is past.
 */
const LIFELONG_HEADINGS = [
  'Diabetes Mellitus',
  'Hypertension',
  'Hypertension, Pulmonary',
  'Pulmonary Disease, Chronic Obstructive',
  'Heart Failure',
  'Atrial Fibrillation',
  'Coronary Artery Disease',
  'Hyperlipidemias',
  'Renal Insufficiency, Chronic',
  'Hypothyroidism',
  'Osteoarthritis',
  'Osteoporosis',
  'Gout',
  'HIV Infections',
  'Liver Cirrhosis',
  'Arthritis, Rheumatoid',
  'Lupus Erythematosus, Systemic',
  'Scleroderma, Systemic',
  'Psoriasis',
  'Inflammatory Bowel Diseases',
  'Multiple Sclerosis',
  'Parkinson Disease',
  'Dementia',
  'Epilepsy',
  'Glaucoma',
  'Bipolar Disorder',
  'Schizophrenia',
];

/** Whether a condition concept is a lifelong diagnosis (one of the headings or under one). */
export const isLifelong = underHeadings(LIFELONG_HEADINGS);
