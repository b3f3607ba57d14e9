/**
 * Inhibitors and inducers of a drug-metabolising enzyme, however a criterion writes the enzyme: "CYP3A4 inhibitors",
 * "cytochrome P450 3A4 inhibitors", "inhibitors of cytochrome P450 (CYP) 2C8", "strong inhibitors or inducers of
 * CYP3A4", "CYP3A4/5 inducers". MeSH holds each class as a pharmacological action (D27), named one way only
 * ("Cytochrome P-450 CYP2C8 Inhibitors", "CYP2C8 Inhibitors"), with its members; the recognizer's longest match finds
 * none of the other forms. MeSH's 3A classes are the subfamily's ("CYP3A"): 3A4 and 3A5 are read as it.
 * A grade ("strong", "moderate") stays a word the rule does not hold: MeSH's members are of every grade.
 */

interface Found {
  concept: { kind: string };
  start: number;
  end: number;
}

/** The class a phrase names ("cyp2c8 inhibitors"), when the vocabulary has it as a medication. */
export type ClassNamed<C> = (phrase: string) => C | undefined;

/** The enzyme, as criteria write it: "CYP3A4", "CYP 2D6", "cytochrome P450 3A4", "cytochrome P-450 (CYP) 3A4/5", "P450 2C9". */
const ENZYME = String.raw`(?:(?:cytochrome\s+)?p-?450\s*(?:enzyme\s+|isoenzyme\s+|isozyme\s+)?(?:\(\s*cyp\s*\)\s*)?(?:cyp\s*)?|cyp\s*)(1a2|2b6|2c8|2c9|2c19|2d6|2e1|3a(?:4|5)?(?:\s*\/\s*(?:3a)?5)?)(?:\s*\(\s*cyp\w+\s*\))?`;
const ACTION = String.raw`(inhibitors?|inducers?)`;
/** "Inhibitors (or inducers) of CYP3A4": the actions first. */
const ACTIONS_OF = new RegExp(String.raw`\b${ACTION}(?:\s*(?:,|\/|or|and|and\/or)\s*${ACTION})?\s+of\s+(?:the\s+)?${ENZYME}(?![a-z0-9])`, 'gi');
/** "CYP3A4 inhibitors (or inducers)": the enzyme first. */
const ENZYME_ACTIONS = new RegExp(String.raw`\b${ENZYME}\s*-?\s*${ACTION}(?:\s*(?:,|\/|or|and|and\/or)\s*${ACTION})?\b`, 'gi');

/** MeSH's name of the enzyme's class: the 3A subfamily as a whole, each other isoform as itself. */
function enzymeKey(written: string): string {
  const isoform = written.toLowerCase().replace(/\s+/g, '');
  return isoform.startsWith('3a') ? 'cyp3a' : `cyp${isoform}`;
}

const plural = (action: string) => (action.toLowerCase().startsWith('inhibitor') ? 'inhibitors' : 'inducers');

/** Where each action word of a match lies, in the text. */
function actionSpans(text: string, from: number, to: number, actions: string[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let at = from;
  for (const action of actions) {
    const start = text.toLowerCase().indexOf(action.toLowerCase(), at);
    if (start < 0 || start >= to) break;
    spans.push([start, start + action.length]);
    at = start + action.length;
  }
  return spans;
}

/** One mention per action a match names; the enzyme's words go to the mention beside them. */
function mentionsOf<C>(text: string, match: RegExpMatchArray, enzymeFirst: boolean, named: ClassNamed<C>): Array<Found & { concept: C }> {
  const start = match.index ?? 0;
  const end = start + match[0].length;
  const [enzyme, ...actions] = enzymeFirst ? [match[1], match[2], match[3]] : [match[3], match[1], match[2]];
  const written = actions.filter((action): action is string => Boolean(action));
  const spans = actionSpans(text, enzymeFirst ? start + match[0].toLowerCase().indexOf(written[0].toLowerCase(), 0) : start, end, written);
  const found: Array<Found & { concept: C }> = [];
  written.forEach((action, index) => {
    const concept = named(`${enzymeKey(enzyme)} ${plural(action)}`);
    if (!concept || !spans[index]) return;
    const last = index === written.length - 1;
    // "CYP3A4 inhibitors or inducers": the enzyme's words are the first's; "inhibitors or inducers of CYP3A4": the last's.
    const from = enzymeFirst && index === 0 ? start : spans[index][0];
    const to = !enzymeFirst && last ? end : spans[index][1];
    found.push({ concept, start: from, end: to } as Found & { concept: C });
  });
  return found;
}

/** The enzyme classes a text names, in the forms MeSH does not hold. */
export function enzymeClassMentions<C>(text: string, named: ClassNamed<C>): Array<Found & { concept: C }> {
  if (!/cyp|p-?450/i.test(text)) return [];
  const found: Array<Found & { concept: C }> = [];
  for (const match of text.matchAll(ACTIONS_OF)) found.push(...mentionsOf(text, match, false, named));
  for (const match of text.matchAll(ENZYME_ACTIONS)) {
    const start = match.index ?? 0;
    if (found.some((item) => item.start < start + match[0].length && item.end > start)) continue;
    found.push(...mentionsOf(text, match, true, named));
  }
  return found;
}
