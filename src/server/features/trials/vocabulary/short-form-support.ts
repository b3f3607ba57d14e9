import type { Lexicon } from './lexicon';

/**
 * Support for an ambiguous short form from the body system its context treats (decision 303). MeSH's tree relates
 * diseases to diseases ("hypertension" and "MI" share the vascular branch), but a medicine or an operation only to its
 * own kind; its therapeutic class and the operations' branch say which body system it treats. A note with a coronary
 * stent and clopidogrel supports the cardiovascular reading of "MI" (myocardial infarction), never a reading in
 * another system; a note with none of them leaves "MI" unread. Each link is MeSH's own grouping of a class or an
 * operation by the organ system it acts on, mapped to that system's disease branch.
 */
const SYSTEM_OF: Array<[prefix: string, diseases: string]> = [
  // Cardiovascular Agents (antiarrhythmics, antihypertensives, vasodilators, fibrinolytics): the cardiovascular system.
  ['D27.505.954.411', 'C14'],
  // Platelet Aggregation Inhibitors: given to prevent arterial thrombosis, coronary or cerebral (MeSH's scope note).
  ['D27.505.954.502.780', 'C14'],
  // Cardiovascular Surgical Procedures (coronary stenting, angioplasty, bypass).
  ['E04.100', 'C14'],
];

/** The disease branches (tree roots) the medicines and operations among these concepts act on. */
export function treatedSystems(lex: Lexicon, concepts: readonly number[]): Set<string> {
  const systems = new Set<string>();
  for (const at of concepts) {
    const concept = lex.concepts[at];
    const trees = [...concept.trees, ...concept.actions.flatMap((action) => lex.concepts[action].trees)];
    for (const [prefix, diseases] of SYSTEM_OF) if (trees.some((tree) => isUnder(tree, prefix))) systems.add(diseases);
  }
  return systems;
}

/** A tree number at or under a branch: "E04.100.814" is under "E04.100". */
const isUnder = (tree: string, prefix: string) => tree === prefix || tree.startsWith(`${prefix}.`);
/** A tree number's root: "C14.280.647" -> "C14". */
const rootOf = (tree: string) => tree.split('.', 1)[0];

/** A reading in one of these disease branches. */
export function inSystems(lex: Lexicon, reading: number, systems: ReadonlySet<string>): boolean {
  return lex.concepts[reading].trees.some((tree) => systems.has(rootOf(tree)));
}

/**
 * The disease branches an operation reading acts on ("PCI", a cardiovascular procedure: C14), by the same links. An
 * operation is supported by a condition of its system in the text or the trial ("CAD s/p PCI"); a condition reading
 * never is (a heart condition does not make "MS" mitral stenosis), so only operations read this way (decision 309).
 */
export function operatedSystems(lex: Lexicon, reading: number): Set<string> {
  const systems = new Set<string>();
  for (const [prefix, diseases] of SYSTEM_OF)
    if (prefix.startsWith('E') && lex.concepts[reading].trees.some((tree) => isUnder(tree, prefix))) systems.add(diseases);
  return systems;
}

/** The disease branches (tree roots) of the conditions among these concepts. */
export function conditionSystems(lex: Lexicon, concepts: readonly number[]): Set<string> {
  return new Set(concepts.flatMap((at) => lex.concepts[at].trees.filter((tree) => tree.startsWith('C')).map(rootOf)));
}
