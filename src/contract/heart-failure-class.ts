/**
 * The New York Heart Association's functional classes of heart failure (decision 370): I, no limit on ordinary activity;
 * II, a slight limit; III, a marked limit; IV, symptoms at rest. A criterion names a range of them ("NYHA class III or IV",
 * "class II-IV", "class ≥ II"), which a condition rule holds as one qualifier; a note names the person's class. Every
 * range but the whole (I to IV, which narrows nothing) is a qualifier. No zod here: the web's rule words load it.
 */
export const HEART_FAILURE_CLASSES = [
  'nyha_1',
  'nyha_1_to_2',
  'nyha_1_to_3',
  'nyha_2',
  'nyha_2_to_3',
  'nyha_2_to_4',
  'nyha_3',
  'nyha_3_to_4',
  'nyha_4',
] as const;
export type HeartFailureClass = (typeof HEART_FAILURE_CLASSES)[number];

const ROMAN = ['I', 'II', 'III', 'IV'] as const;

/** "NYHA class III", "NYHA class II–IV": the staff's words for a range, and the words a fact's name carries. */
export const nyhaLabel = (lowest: number, highest: number) =>
  lowest === highest ? `NYHA class ${ROMAN[lowest - 1]}` : `NYHA class ${ROMAN[lowest - 1]}–${ROMAN[highest - 1]}`;

/** The qualifier of a range of classes, or null for the whole range (it narrows nothing). */
export function heartFailureClassOf(lowest: number, highest: number): HeartFailureClass | null {
  if (lowest < 1 || highest > 4 || lowest > highest || (lowest === 1 && highest === 4)) return null;
  return (lowest === highest ? `nyha_${lowest}` : `nyha_${lowest}_to_${highest}`) as HeartFailureClass;
}

/** The range a qualifier names. */
export function rangeOf(qualifier: HeartFailureClass): [number, number] {
  const [, lowest, highest] = /^nyha_(\d)(?:_to_(\d))?$/.exec(qualifier)!;
  return [Number(lowest), Number(highest ?? lowest)];
}

/** The labels of every range whose classes all lie in (`inside`) or all lie outside (`!inside`) the given range. */
function labelsOfRanges(lowest: number, highest: number, inside: boolean): string[] {
  const labels: string[] = [];
  for (let from = 1; from <= 4; from++)
    for (let to = from; to <= 4; to++) {
      const within = from >= lowest && to <= highest;
      const apart = to < lowest || from > highest;
      if (inside ? within : apart) labels.push(nyhaLabel(from, to));
    }
  // Longest first, so "NYHA class II–III" is not read as "NYHA class II".
  return labels.sort((a, b) => b.length - a.length);
}

const escapeLabel = (label: string) => label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const namesOneOf = (labels: string[]) => new RegExp(`\\b(?:${labels.map(escapeLabel).join('|')})(?![\\w–-])`, 'i');

/** A fact's name holds the range when the class (or range) it names lies wholly inside it. */
export const heartFailureClassHeld = (qualifier: HeartFailureClass) => namesOneOf(labelsOfRanges(...rangeOf(qualifier), true));

/** A fact's name denies the range when the class (or range) it names lies wholly outside it. */
export const heartFailureClassDenied = (qualifier: HeartFailureClass) => {
  const outside = labelsOfRanges(...rangeOf(qualifier), false);
  return outside.length ? namesOneOf(outside) : null;
};

/** The words a question adds after "heart failure", plain for a patient. */
export const HEART_FAILURE_CLASS_WORDS: Record<HeartFailureClass, { en: string; es: string }> = {
  nyha_1: { en: 'that does not limit your everyday activities', es: 'que no limita sus actividades diarias' },
  nyha_1_to_2: {
    en: 'that limits your everyday activities no more than slightly',
    es: 'que limita sus actividades diarias como mucho un poco',
  },
  nyha_1_to_3: { en: 'that gives you no symptoms at rest', es: 'que no le causa síntomas en reposo' },
  nyha_2: { en: 'that limits your everyday activities slightly', es: 'que limita un poco sus actividades diarias' },
  nyha_2_to_3: {
    en: 'that limits your everyday activities but gives you no symptoms at rest',
    es: 'que limita sus actividades diarias pero no le causa síntomas en reposo',
  },
  nyha_2_to_4: { en: 'that limits your everyday activities', es: 'que limita sus actividades diarias' },
  nyha_3: {
    en: 'that limits your everyday activities a lot, with no symptoms at rest',
    es: 'que limita mucho sus actividades diarias, sin síntomas en reposo',
  },
  nyha_3_to_4: {
    en: 'that limits your everyday activities a lot or gives you symptoms at rest',
    es: 'que limita mucho sus actividades diarias o le causa síntomas en reposo',
  },
  nyha_4: { en: 'that gives you symptoms even at rest', es: 'que le causa síntomas incluso en reposo' },
};

const CLASS = String.raw`(IV|III|II|I|[1-4])(?![\w/])`;
const CLASS_NUMBER: Record<string, number> = { i: 1, ii: 2, iii: 3, iv: 4, '1': 1, '2': 2, '3': 3, '4': 4 };
const classNumber = (written: string) => CLASS_NUMBER[written.toLowerCase()];

/**
 * "NYHA class III or IV", "New York Heart Association (NYHA) class II-IV", "NYHA functional class ≥ II", "NYHA class II or
 * higher", "NYHA III": the name of the scale and the classes it says, in a criterion or a note.
 */
export const NYHA_CLASS = new RegExp(
  String.raw`\b(?:NYHA|New\s+York\s+Heart\s+Association)(?:\s*\(NYHA\))?(?:\s+(?:functional\s+)?(?:class(?:es|ification)?|stage))?\s*` +
    String.raw`((?:≥|>=|≧|>|≤|<=|≦|<|(?:greater|higher|more|worse|less|lower|better)\s+than(?:\s+or\s+equal\s+to)?|at\s+least|at\s+most|up\s+to|above|below)\s*)?` +
    String.raw`${CLASS}((?:\s*(?:,|-|–|to|through|or|and|and\/or|\/)\s*(?:class\s+)?(?:IV|III|II|I|[1-4])(?![\w/]))*)` +
    String.raw`(\s*(?:or|and)\s+(?:higher|greater|above|worse|more(?:\s+severe)?|lower|less|below|better))?`,
  'gi',
);

/** The range of classes a match of NYHA_CLASS says, or null when it is not one range ("class I or III"). */
export function nyhaRange(match: RegExpExecArray | RegExpMatchArray): [number, number] | null {
  const [, comparison = '', first, more = '', direction = ''] = match;
  const lowest = classNumber(first);
  const listed = [lowest, ...[...more.matchAll(/(IV|III|II|I|[1-4])(?![\w/])/gi)].map((item) => classNumber(item[1]))];
  const spanned = /-|–|to|through/i.test(more) && listed.length === 2;
  const compare = comparison.trim().toLowerCase();
  if (compare && listed.length > 1) return null;
  if (/^(?:≥|>=|≧|at\s+least)|than\s+or\s+equal/.test(compare)) {
    const atMost = /less|lower|better/.test(compare);
    return atMost ? [1, lowest] : [lowest, 4];
  }
  if (/^(?:>|above)|(?:greater|higher|more|worse)\s+than/.test(compare)) return lowest < 4 ? [lowest + 1, 4] : null;
  if (/^(?:≤|<=|≦|at\s+most|up\s+to)/.test(compare)) return [1, lowest];
  if (/^(?:<|below)|(?:less|lower|better)\s+than/.test(compare)) return lowest > 1 ? [1, lowest - 1] : null;
  if (direction) return /higher|greater|above|worse|more/i.test(direction) ? [lowest, 4] : [1, lowest];
  if (spanned) return listed[1] > lowest ? [lowest, listed[1]] : null;
  const sorted = [...new Set(listed)].sort((a, b) => a - b);
  // A list of classes is a range only when it has no gap: "II or III", never "I or III".
  if (sorted.some((value, index) => index > 0 && value !== sorted[index - 1] + 1)) return null;
  return [sorted[0], sorted.at(-1)!];
}
