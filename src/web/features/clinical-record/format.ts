import type { CandidateStatus } from '../../../contract/candidates';
import type { CandidateFact, ClinicalNote, FactKind, FactSource, FactStatus, MatchClass } from '../../../contract/matching';

/** The words for a fact's status: text on every badge, so the meaning never rests on colour alone. */
export const FACT_STATUS_LABELS: Record<FactStatus, string> = { present: 'Present', history: 'Past', absent: 'Absent' };
export const FACT_STATUS_TONES: Record<FactStatus, 'green' | 'slate' | 'amber'> = { present: 'green', history: 'slate', absent: 'amber' };

export const FACT_SOURCE_LABELS: Record<FactSource, string> = {
  note: 'Clinical note',
  fhir: 'Health record (FHIR)',
  prescreen: 'Prescreen answer',
  manual: 'Entered by staff',
  import: 'Imported file',
};

export const FACT_KIND_LABELS: Record<FactKind, string> = {
  condition: 'Condition',
  medication: 'Medication',
  lab: 'Lab or vital sign',
  pregnancy: 'Pregnancy',
  smoking: 'Smoking',
  performance_status: 'Performance status',
  age: 'Age',
  sex: 'Sex',
};

export const MATCH_CLASS_LABELS: Record<Exclude<MatchClass, 'excluded'>, string> = { likely: 'Likely eligible', possible: 'Possibly eligible' };

/** The table's sections, in reading order; kinds not named elsewhere fall under Other. */
export const FACT_GROUPS = [
  { title: 'Conditions', kinds: ['condition'] },
  { title: 'Medications', kinds: ['medication'] },
  { title: 'Labs and vitals', kinds: ['lab'] },
  { title: 'Other', kinds: ['age', 'sex', 'smoking', 'pregnancy', 'performance_status'] },
] as const satisfies ReadonlyArray<{ title: string; kinds: readonly FactKind[] }>;

export function groupFacts(facts: CandidateFact[]): Array<{ title: string; facts: CandidateFact[] }> {
  return FACT_GROUPS.map((group) => ({ title: group.title, facts: facts.filter((fact) => (group.kinds as readonly FactKind[]).includes(fact.kind)) })).filter(
    (group) => group.facts.length > 0,
  );
}

/** What a fact measures, in words: "7.1 %", "58 years", "ECOG 1", "Female"; '' when it has no value. */
export function factValue(fact: Pick<CandidateFact, 'kind' | 'value' | 'unit' | 'valueText'>): string {
  if (fact.kind === 'sex') return fact.valueText ? fact.valueText.charAt(0).toUpperCase() + fact.valueText.slice(1) : '';
  if (fact.kind === 'performance_status') return [fact.valueText, fact.value].filter((part) => part != null && part !== '').join(' ');
  if (fact.value == null) return fact.valueText ?? '';
  const number = fact.value.toLocaleString('en-US', { maximumFractionDigits: 3 });
  return fact.unit ? `${number} ${fact.unit}` : number;
}

export interface NoteEvidence {
  before: string;
  mention: string;
  after: string;
}

/** Sentence ends: a stop followed by a space, or a line break. */
const SENTENCE_END = /[.!?](?=\s)|\n/g;
/** Words whose stop does not end a sentence ("Dr. Lee", "e.g. asthma"). */
const ABBREVIATION = /(?:^|[\s(])(?:dr|mr|mrs|ms|prof|st|vs|approx|e\.g|i\.e|hx|pt)$/i;

/**
 * The sentence of a note that holds a fact's mention, split around it so the mention can be marked.
 * `span` indexes the whole note's text; null when the span does not fit the note (an edited or other note).
 */
export function noteEvidence(body: string, span: { start: number; end: number } | null): NoteEvidence | null {
  if (!span || span.start < 0 || span.end <= span.start || span.end > body.length) return null;
  let start = 0;
  let end = body.length;
  for (const match of body.matchAll(SENTENCE_END)) {
    if (match[0] === '.' && ABBREVIATION.test(body.slice(Math.max(0, match.index - 8), match.index))) continue;
    const stop = match.index + match[0].length;
    if (stop <= span.start) start = stop;
    else if (match.index >= span.end) {
      end = match[0] === '\n' ? match.index : stop;
      break;
    }
  }
  return {
    before: body.slice(start, span.start).trimStart(),
    mention: body.slice(span.start, span.end),
    after: body.slice(span.end, end).trimEnd(),
  };
}

/** The note a fact was read from, when it still exists. */
export function noteOf(fact: CandidateFact, notes: ClinicalNote[]): ClinicalNote | undefined {
  return fact.source === 'note' && fact.sourceRef ? notes.find((note) => note.id === fact.sourceRef) : undefined;
}

export const newestFirst = <T extends { createdAt: string }>(items: T[]) => [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

/** Statuses that end a candidate's path in their trial (a screen fail, a refusal): the moment to look at the others. */
export const RE_MATCH_STATUSES: ReadonlySet<CandidateStatus> = new Set(['prescreen_failed', 'not_interested']);

/** A calendar day (YYYY-MM-DD) in the reader's words, read as that day wherever the reader is. */
export function formatDay(day: string | null): string {
  if (!day) return '—';
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return new Date(year, month - 1, date).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
