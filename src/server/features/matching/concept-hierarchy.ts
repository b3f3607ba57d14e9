import { inClass, isA as underInTree } from '../trials/vocabulary';

/**
 * The concept hierarchy the matcher reads conditions and medicines through (issue 31): a fact of a concept meets a
 * rule of any of its ancestors in MeSH's tree ("NSTEMI" meets "myocardial infarction", "lung adenocarcinoma" meets
 * "lung cancer", "NSCLC" is caught by "no malignancy"), and a medicine meets a rule of its class by its
 * pharmacological action (atorvastatin is a statin). The tree and the actions come with the vocabulary (issue 30,
 * decision 127); an id the vocabulary cannot place is only itself.
 */
export function isA(conceptId: string, ancestorId: string): boolean {
  return underInTree(conceptId, ancestorId) || inClass(conceptId, ancestorId);
}
