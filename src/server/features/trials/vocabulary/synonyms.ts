/**
 * The maintained part of the criteria vocabulary: plain names (English and Spanish) for the conditions and
 * medicines that eligibility criteria name most, their synonyms and abbreviations, the MeSH heading they
 * correspond to (`meshTerm`, resolved against the MeSH lexicon, mesh-2024.json.gz) and the ICD-10-CM
 * code where one fits the concept as a whole. Sources and licences: docs/decisions/022-criteria-vocabulary.md.
 *
 * Synonyms are matched case-insensitively on word boundaries, except entries in `caseSensitive` (short
 * abbreviations such as "MI" or "ALL" that are ordinary words in lower case).
 */
import type { SynonymEntry } from './hand/entry';
import { METABOLISM_GUT_KIDNEYS } from './hand/metabolism-gut-kidneys';
import { HEART_LUNGS_BLOOD } from './hand/heart-lungs-blood';
import { CANCER_INFECTION_IMMUNE } from './hand/cancer-infection-immune';
import { BONES_JOINTS_SKIN } from './hand/bones-joints-skin';
import { BRAIN_MIND_SENSES } from './hand/brain-mind-senses';
import { TRIAL_IDIOMS } from './hand/trial-idioms';
import { MEDICINES } from './hand/medicines';

export type { ConceptKind, SynonymEntry } from './hand/entry';

/**
 * Every hand entry: by body system, then trial idioms, then medicines (hand/*.ts). Order matters only where two entries
 * share a phrase or a heading: the first claims it.
 */
export const SYNONYMS: SynonymEntry[] = [
  ...METABOLISM_GUT_KIDNEYS,
  ...HEART_LUNGS_BLOOD,
  ...CANCER_INFECTION_IMMUNE,
  ...BONES_JOINTS_SKIN,
  ...BRAIN_MIND_SENSES,
  ...TRIAL_IDIOMS,
  ...MEDICINES,
];

/**
 * The MeSH heading a hand entry of a medicine class names, where its own words are no heading's name: its place
 * in the hierarchy, so a medicine MeSH files under the class is in it (`inClass`, decision 127). Not a synonym:
 * the entry's phrases are unchanged.
 */
export const CLASS_HEADINGS: Record<string, string> = {
  statins: 'Hydroxymethylglutaryl-CoA Reductase Inhibitors',
  anticoagulants: 'Anticoagulants',
  antiplatelets: 'Platelet Aggregation Inhibitors',
  immunosuppressants: 'Immunosuppressive Agents',
  anticonvulsants: 'Anticonvulsants',
  'ace-inhibitors': 'Angiotensin-Converting Enzyme Inhibitors',
  arbs: 'Angiotensin II Type 1 Receptor Blockers',
  ppis: 'Proton Pump Inhibitors',
  'cyp3a-inhibitors': 'Cytochrome P-450 CYP3A Inhibitors',
  'cyp3a-inducers': 'Cytochrome P-450 CYP3A Inducers',
  'weight-loss-drugs': 'Anti-Obesity Agents',
  antidepressants: 'Antidepressive Agents',
  antipsychotics: 'Antipsychotic Agents',
  'beta-blockers': 'Adrenergic beta-Antagonists',
  opioids: 'Analgesics, Opioid',
  antivirals: 'Antiviral Agents',
  glp1: 'Glucagon-Like Peptide-1 Receptor Agonists',
  sglt2: 'Sodium-Glucose Transporter 2 Inhibitors',
  biologics: 'Antibodies, Monoclonal',
  // Its place in the hierarchy, so one organ's transplant (a heading under it) meets it (decision 192).
  'organ-transplant': 'Organ Transplantation',
};
