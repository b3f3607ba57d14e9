/**
 * The concept hierarchy the matcher reads conditions through (issue 31): a fact of a concept meets a rule of any
 * of its ancestors ("NSTEMI" meets "myocardial infarction", "lung adenocarcinoma" meets "lung cancer"). The MeSH
 * tree comes with the vocabulary (issue 30, branch `vocab`); until it is merged a concept is only itself, so the
 * matcher answers exactly as before for every pair of distinct concepts.
 */
export function isA(conceptId: string, ancestorId: string): boolean {
  return conceptId === ancestorId;
}
