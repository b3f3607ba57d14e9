import type { CandidateFactInput } from '../../../contract/matching';
import { nameWithQualifiers } from './note-details';

/**
 * A disease's severity as notes write it, on the scale that disease is graded by (decision 231): "Hurley stage II",
 * "total Mayo score 8", "CDAI 310", "GOLD 3", "EASI 24". Each scale belongs to one disease, so the grade is read as
 * that disease's severity word (mild, moderate, severe: the words `contract/qualifiers.ts` looks for in a fact's name)
 * wherever the note writes it; the note reader adds it to the disease's fact when the disease's own words gave no
 * severity. A scale the table does not know, a subscore ("Mayo endoscopic subscore 2") or a modified form
 * ("modified Mayo score") adds nothing; two readings of one scale that disagree add nothing either.
 *
 * The cut-offs are the published ones: Hurley I-III (mild, moderate, severe); the total Mayo score 3-5 / 6-10 / 11-12
 * and the partial (9-point) Mayo score 2-4 / 5-6 / 7-9 for ulcerative colitis; CDAI 150-219 / 220-450 / over 450 for
 * Crohn's disease; GOLD 1 / 2 / 3-4 for COPD; EASI 1.1-7 / 7.1-21 / over 21 and SCORAD under 25 / 25-50 / over 50
 * for atopic dermatitis. A score below the mild band (remission, clear skin) says no severity word.
 */

type Severity = 'mild' | 'moderate' | 'severe';

interface Scale {
  /** The disease's fact name (the vocabulary's English name) the scale grades. */
  disease: RegExp;
  /** The scale and its grade: group 1 a modifier ("partial"), group 2 the grade. */
  pattern: RegExp;
  grade: (value: string, modifier: string) => Severity | null;
}

const ROMAN: Record<string, number> = { i: 1, ii: 2, iii: 3, iv: 4 };
const gradeNumber = (value: string) => ROMAN[value.toLowerCase()] ?? Number(value);
const band = (value: number, mild: number, moderate: number, severe: number): Severity | null =>
  value >= severe ? 'severe' : value >= moderate ? 'moderate' : value >= mild ? 'mild' : null;
/** "of", "was", "is", "=", ":" and "score" between a scale's name and its number. */
const JOIN = String.raw`\s*(?:score|index|stage|grade|class)?\s*(?:of|was|is|=|:|at)?\s*`;
const NUMBER = String.raw`(\d{1,3}(?:\.\d)?)(?!\s*[-–/]\s*\d|\.\d|\d|\s*%)`;

const SCALES: Scale[] = [
  {
    disease: /hidradenitis/i,
    pattern: new RegExp(String.raw`\b()Hurley${JOIN}(III|II|I|[123])\b(?!\s*[-–/]\s*(?:I|\d))`, 'i'),
    grade: (value) => band(gradeNumber(value), 1, 2, 3),
  },
  {
    disease: /ulcerative colitis/i,
    // "total Mayo score 8", "partial Mayo score of 6"; never a subscore ("Mayo endoscopic subscore 2") or a modified one.
    pattern: new RegExp(
      String.raw`\b(?:(total|full|complete|partial|modified|adapted)\s+)?Mayo\s+(?:clinic\s+)?(?:score|index)\s*(?:of|was|is|=|:)?\s*${NUMBER}`,
      'i',
    ),
    grade: (value, modifier) => {
      const score = Number(value);
      if (/modified|adapted/i.test(modifier)) return null;
      if (/partial/i.test(modifier)) return score > 9 ? null : band(score, 2, 5, 7);
      return score > 12 ? null : band(score, 3, 6, 11);
    },
  },
  {
    disease: /crohn/i,
    pattern: new RegExp(String.raw`\b()(?:CDAI|Crohn'?s disease activity index)${JOIN}${NUMBER}`, 'i'),
    grade: (value) => {
      const score = Number(value);
      return score > 600 ? null : score > 450 ? 'severe' : band(score, 150, 220, Number.POSITIVE_INFINITY);
    },
  },
  {
    disease: /chronic obstructive|\bCOPD\b/i,
    // "GOLD 3", "GOLD stage II", "GOLD grade 2": the spirometric grade, never the A/B/E group; in capitals only, so
    // gold (the metal, "gold standard") is never a grade.
    pattern: /\b()GOLD(?:\s+(?:[Ss]tage|[Gg]rade))?\s*(?:of|was|is|=|:)?\s*(IV|III|II|I|[1-4])\b(?!\s*[-–/]\s*(?:I|\d))/,
    grade: (value) => band(gradeNumber(value), 1, 2, 3),
  },
  {
    disease: /atopic dermatitis|eczema/i,
    pattern: new RegExp(String.raw`\b()EASI${JOIN}${NUMBER}`, 'i'),
    grade: (value) => {
      const score = Number(value);
      return score > 72 ? null : score > 21 ? 'severe' : score > 7 ? 'moderate' : score > 1 ? 'mild' : null;
    },
  },
  {
    disease: /atopic dermatitis|eczema/i,
    pattern: new RegExp(String.raw`\b()SCORAD${JOIN}${NUMBER}`, 'i'),
    grade: (value) => {
      const score = Number(value);
      return score > 103 ? null : score > 50 ? 'severe' : score >= 25 ? 'moderate' : score > 0 ? 'mild' : null;
    },
  },
];

/** The severity each scale the note writes gives its disease: `disease` the fact name it belongs to. */
function readSeverityScales(text: string): Array<{ disease: RegExp; severity: Severity }> {
  const found: Array<{ disease: RegExp; severity: Severity }> = [];
  for (const scale of SCALES) {
    const severities = new Set<Severity | null>();
    for (const match of text.matchAll(new RegExp(scale.pattern.source, `${scale.pattern.flags}g`))) severities.add(scale.grade(match[2], match[1] ?? ''));
    // Two readings of one scale that disagree (a past and a present score) say neither.
    if (severities.size !== 1) continue;
    const [severity] = [...severities];
    if (severity) found.push({ disease: scale.disease, severity });
  }
  return found;
}

/** The severity words a condition's own phrase may already carry: those win over a scale. */
const SEVERITY_WORDS = new Set(['mild', 'moderate', 'severe', 'mild to moderate', 'moderate to severe']);

/** A condition fact the note reader drafts, with its own name and qualifiers (note-extractor.ts `Draft`). */
interface NamedCondition {
  fact: CandidateFactInput;
  named?: { name: string; qualifiers: string[] };
}

/**
 * Adds the severity a scale in the note gives to the present fact of the disease it grades, where the disease's own
 * words gave none (decision 231): "hidradenitis suppurativa" with "Hurley stage II" becomes "hidradenitis
 * suppurativa (moderate)".
 */
export function gradeBySeverityScales(text: string, drafts: Iterable<NamedCondition>): void {
  const found = readSeverityScales(text);
  if (!found.length) return;
  for (const draft of drafts) {
    const named = draft.named;
    if (!named || draft.fact.status !== 'present' || named.qualifiers.some((word) => SEVERITY_WORDS.has(word))) continue;
    const severity = found.find((item) => item.disease.test(named.name))?.severity;
    if (!severity) continue;
    named.qualifiers = [severity, ...named.qualifiers];
    draft.fact = { ...draft.fact, name: nameWithQualifiers(named.name, named.qualifiers) };
  }
}
