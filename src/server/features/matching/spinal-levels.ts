import type { CriterionRule } from '../../../contract/trials';

/**
 * Disc levels, as a qualifier of a spine condition (decision 183): a criterion "L4-5 or L5-S1 herniation" against a
 * note's "L4-L5 disc extrusion". Only a level between two vertebrae (a disc's) is read, written "L4-L5", "L4-5",
 * "L5/S1" or "L5-S1"; a single vertebra or nerve root ("S1 radiculopathy") is another thing and is not compared.
 * The note reader writes the levels into the fact's name beside its other qualifiers ("(lumbar, L4-L5)"); the
 * matcher reads the criterion's from the clause holding its rule. Both must say a level to decide: a disc
 * herniation without one stays unknown against a criterion that names levels.
 */
const DISC_LEVEL = /\b([CTL])(\d{1,2})\s*[-–/]\s*([CTLS])?(\d{1,2})\b/gi;

/** "L4-5" -> "L4-L5", "l5/s1" -> "L5-S1"; null when the two are not neighbours (a range "L2-L5" is no one disc). */
function discLevel(match: RegExpExecArray): string | null {
  const first = match[1].toUpperCase();
  const second = (match[3] ?? match[1]).toUpperCase();
  const [a, b] = [Number(match[2]), Number(match[4])];
  const neighbours =
    first === second
      ? b === a + 1
      : (first === 'L' && second === 'S' && b === 1) || (first === 'C' && second === 'T' && b === 1) || (first === 'T' && second === 'L' && b === 1);
  return neighbours ? `${first}${a}-${second}${b}` : null;
}

/** The disc levels written in a text, normalised, in order, once each. */
export function discLevelsIn(text: string): string[] {
  const found: string[] = [];
  DISC_LEVEL.lastIndex = 0;
  for (let match = DISC_LEVEL.exec(text); match; match = DISC_LEVEL.exec(text)) {
    const level = discLevel(match);
    if (level && !found.includes(level)) found.push(level);
  }
  return found;
}

/** A condition of the spine, where a level means a disc. */
const SPINE = /\b(?:dis[ck]|herniat\w*|slipped|spin\w*|stenosis|radicul\w*|sciatica|spondyl\w*|vertebr\w*|nerve root)/i;
/** A clause that sets levels aside says the opposite of a list of wanted ones. */
const SET_ASIDE = /\b(?:other than|except|excluding|apart from|besides|not at|no\b|without|more than one|two or more|multiple|multi-?level)/i;

/**
 * The disc levels a condition criterion asks about, read from the clause (to the nearest "." or ";") that holds its
 * rule's words; null when the rule is not about the spine, or the clause names no level or sets levels aside.
 */
export function criterionDiscLevels(rule: CriterionRule | null, text: string | undefined): string[] | null {
  if (!text || rule?.type !== 'condition') return null;
  const names = [rule.condition, ...(rule.concepts ?? []).map((concept) => concept.name)].join(' ');
  if (!SPINE.test(names)) return null;
  const at = rule.span?.start ?? 0;
  const from = Math.max(text.lastIndexOf(';', at), text.lastIndexOf('. ', at)) + 1;
  const ends = [text.indexOf(';', at), text.indexOf('. ', at)].filter((index) => index >= 0);
  const clause = text.slice(from, ends.length ? Math.min(...ends) : text.length);
  if (SET_ASIDE.test(clause)) return null;
  const levels = discLevelsIn(clause);
  return levels.length ? levels : null;
}

/** A fact's disc levels against the criterion's: one of them, none of them (the fact names others), or unsaid. */
export function levelsAgree(factName: string, levels: readonly string[]): 'in' | 'out' | 'unsaid' {
  const own = discLevelsIn(factName);
  if (!own.length) return 'unsaid';
  return own.some((level) => levels.includes(level)) ? 'in' : 'out';
}

/** What the levels read of a criterion (evaluate.ts `MatchCriterion` and score.ts's have it). */
interface WordedCriterion {
  rule: CriterionRule | null;
  ruleSource: string | null;
  text?: string;
}

const levelsCache = new WeakMap<WordedCriterion, string[] | null>();
/** A criterion's disc levels, read once per criterion object; never the trial's own condition (target-condition.ts). */
export function discLevelsOf(criterion: WordedCriterion): string[] | null {
  if (criterion.ruleSource?.startsWith('target')) return null;
  let levels = levelsCache.get(criterion);
  if (levels === undefined) levelsCache.set(criterion, (levels = criterionDiscLevels(criterion.rule, criterion.text)));
  return levels;
}
