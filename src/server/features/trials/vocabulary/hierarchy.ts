import { lexicon } from './lexicon';
import { vocabulary } from './index';

/**
 * Hierarchy and classes (decision 127): MeSH's tree and pharmacological actions, for the criteria reader and the
 * matcher, with the few clinical "is a" links MeSH does not draw. Split from index.ts (the recognizer) at its size limit.
 */

/**
 * "Is a" links clinicians use that MeSH's tree does not draw, each with its reason; reviewed, kept small. Sciatica is
 * pain along the sciatic nerve from a lumbar or sacral nerve root, a radiculopathy (ICD-10-CM files lumbar radiculopathy,
 * M54.16, and sciatica, M54.3, side by side); MeSH puts it under sciatic neuropathy only, so "radiculopathy" in a
 * criterion would miss a person whose record says sciatica.
 */
const CLINICAL_BROADER: Record<string, string[]> = {
  'mesh:D012585': ['mesh:D011843'],
  // A microdiscectomy (a hand entry: MeSH has no heading) is a diskectomy and a spine operation.
  'cohortly:microdiscectomy': ['mesh:D017586', 'cohortly:spine-surgery'],
  // Schizophrenia is a psychotic disorder by its definition (ICD-10 F20-F29, DSM-5); MeSH files Schizophrenia beside
  // Psychotic Disorders, so "no psychosis" would miss a person whose record says schizophrenia (decision 180).
  'cohortly:schizophrenia': ['cohortly:psychotic-disorder'],
  // Idiopathic and heritable PAH are WHO group 1 pulmonary arterial hypertension by definition (ESC/ERS 2022); MeSH
  // files Familial Primary Pulmonary Hypertension, whose entry terms include "idiopathic pulmonary arterial
  // hypertension", beside PAH under Hypertension, Pulmonary, so a note's IPAH would not meet "PAH" (decision 183).
  'mesh:D065627': ['mesh:D000081029'],
  // Dementia is a major neurocognitive disorder, an acquired cognitive impairment (DSM-5); MeSH files Dementia beside
  // Cognitive Dysfunction, so "no cognitive impairment" would miss a person whose record says dementia (decision 192).
  'cohortly:dementia': ['cohortly:cognitive-impairment'],
  // A fragility fracture is a broken bone; the hand entry of any fracture names no heading to reach it by (decision 192).
  'cohortly:osteoporotic-fracture': ['cohortly:fracture'],
  // Adenocarcinoma and squamous cell carcinoma of the lung are non-small cell lung cancers by definition (WHO
  // classification of lung tumours); MeSH files Adenocarcinoma of Lung under Lung Neoplasms and Adenocarcinoma only, and
  // has no heading for the squamous kind, so a note's "lung adenocarcinoma" would not meet "NSCLC" (decision 194).
  'mesh:D000077192': ['mesh:D002289'],
  'cohortly:lung-adenocarcinoma': ['mesh:D002289'],
  'cohortly:lung-squamous-cell-carcinoma': ['mesh:D002289'],
  // An epidural steroid injection is a spinal injection: a rule of any spinal injection still meets it, while a rule of
  // epidural steroids asks about the steroid alone (a childbirth epidural or a facet injection is not one).
  'cohortly:epidural-steroid-injection': ['cohortly:epidural-injection'],
};

/**
 * `conceptId` is `ancestorId` or sits under it in MeSH's tree: "non-small cell lung cancer" is a neoplasm, "NSTEMI" a
 * myocardial infarction. A hand concept answers through the heading it names; an id the lexicon cannot place is only itself.
 */
export function isA(conceptId: string, ancestorId: string): boolean {
  if (conceptId === ancestorId) return true;
  if (CLINICAL_BROADER[conceptId]?.some((broader) => isA(broader, ancestorId))) return true;
  if (meshIsA(conceptId, ancestorId)) return true;
  // A heading under a linked one inherits its link: vascular dementia (under Dementia in MeSH) is a cognitive impairment.
  return Object.entries(CLINICAL_BROADER).some(
    ([narrower, broader]) => narrower !== conceptId && meshIsA(conceptId, narrower) && broader.some((item) => item === ancestorId || meshIsA(item, ancestorId)),
  );
}

/** MeSH's tree alone: no clinical links (they are followed one step, by `isA`). */
function meshIsA(conceptId: string, ancestorId: string): boolean {
  const [a, b] = [vocabulary().lexiconIndex(conceptId), vocabulary().lexiconIndex(ancestorId)];
  return a !== undefined && b !== undefined && lexicon().isA(a, b);
}

/**
 * A medicine is in a class when one of its pharmacological actions is the class or under it, or the medicine itself
 * sits under it: atorvastatin is a "Hydroxymethylglutaryl-CoA Reductase Inhibitor" (a statin), warfarin an anticoagulant.
 */
export function inClass(drugId: string, classId: string): boolean {
  if (drugId === classId) return true;
  const [drug, drugClass] = [vocabulary().lexiconIndex(drugId), vocabulary().lexiconIndex(classId)];
  return drug !== undefined && drugClass !== undefined && lexicon().inClass(drug, drugClass);
}

/** Every heading above a concept in MeSH's tree, as concept ids (`mesh:D...`), nearest first within each branch. */
export function ancestorsOf(conceptId: string): string[] {
  const at = vocabulary().lexiconIndex(conceptId);
  return at === undefined
    ? []
    : lexicon()
        .ancestors(at)
        .map((ancestor) => `mesh:${lexicon().concepts[ancestor].ui}`);
}

/**
 * A diagnosis a person is told they have: a MeSH disease (tree C) or mental disorder (F03), or a reviewed hand condition
 * that is not for clinicians only. Not a procedure, a finding's name or a substance (decision 150).
 */
export function isDiagnosis(conceptId: string): boolean {
  const concept = vocabulary().concept(conceptId);
  if (concept?.kind !== 'condition' || concept.clinicianOnly) return false;
  const at = vocabulary().lexiconIndex(conceptId);
  return at === undefined || lexicon().concepts[at].trees.some((tree) => tree.startsWith('C') || tree.startsWith('F03'));
}

/** A MeSH heading of operations alone (tree E04, "Surgical Procedures, Operative"): a procedure, not a condition (decision 235). */
export function isOperationHeading(conceptId: string): boolean {
  const at = vocabulary().lexiconIndex(conceptId);
  return at !== undefined && lexicon().concepts[at].trees.length > 0 && lexicon().concepts[at].trees.every((tree) => tree.startsWith('E04'));
}

/** The drug classes (pharmacological actions) of a medicine, as concept ids. */
export function drugClassesOf(drugId: string): string[] {
  const at = vocabulary().lexiconIndex(drugId);
  return at === undefined ? [] : lexicon().concepts[at].actions.map((action) => `mesh:${lexicon().concepts[action].ui}`);
}

/** The concept id of a MeSH heading by its preferred name ("Pregnancy" -> "mesh:D011247"), if the lexicon keeps it. */
export function meshIdByName(name: string): string | undefined {
  const at = lexicon().byName(name);
  return at === undefined ? undefined : `mesh:${lexicon().concepts[at].ui}`;
}
