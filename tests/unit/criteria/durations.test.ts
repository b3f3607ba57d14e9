import { describe, expect, it } from 'vitest';
import { CriterionRuleSchema, durationDays, durationWords, type CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { factsFromAnswers } from '../../../src/server/features/matching/facts';
import { generateStudyBlocks } from '../../../src/server/features/prescreen-forms/generator';
import { evaluatePrescreen } from '../../../src/server/features/prescreen/engine';
import { readTextRule, trialConceptsOf } from '../../../src/server/features/trials/criteria';
import { ruleInWords } from '../../../src/web/features/trials/format';

/**
 * How long a condition has lasted (decision 045): read from the criterion, asked of the patient, decided by the
 * prescreen engine from the answer and by the matcher from a condition fact's date. None of these phrasings is a
 * corpus record's.
 */
const kneePain = { id: 'mesh:D059352', name: 'knee pain' };
const atLeast3Months = {
  type: 'condition',
  condition: 'knee pain',
  present: true,
  concepts: [kneePain],
  duration: { minDays: 91 },
} as const satisfies CriterionRule;
const under6Weeks = { ...atLeast3Months, duration: { maxDays: 42 } } as const satisfies CriterionRule;

describe('the contract', () => {
  it('parses rules stored before durations, and days convert both ways', () => {
    expect(CriterionRuleSchema.safeParse({ type: 'condition', condition: 'asthma', present: true }).success).toBe(true);
    expect(CriterionRuleSchema.safeParse({ ...atLeast3Months, duration: { minDays: 91, span: { start: 10, end: 30 } } }).success).toBe(true);
    expect(CriterionRuleSchema.safeParse({ ...atLeast3Months, duration: { minDays: -3 } }).success).toBe(false);
    expect(durationDays(3, 'months')).toBe(91);
    expect(durationDays(6, 'weeks')).toBe(42);
    expect(durationWords(91).en).toBe('3 months');
    expect(durationWords(42)).toEqual({ en: '6 weeks', es: '6 semanas' });
    expect(durationWords(365).en).toBe('1 year');
    expect(durationWords(10).en).toBe('10 days');
    // What staff read in the criteria list.
    expect(ruleInWords(atLeast3Months)).toBe('Must have knee pain for at least 3 months');
    expect(ruleInWords({ ...under6Weeks, present: false })).toBe('Must not have knee pain for less than 6 weeks');
  });
});

describe('reading a duration beside a condition', () => {
  const duration = (kind: 'inclusion' | 'exclusion', text: string, trial: string[] = []) => {
    const read = readTextRule(kind, text, { trialConcepts: trialConceptsOf(trial) });
    return read.rule?.type === 'condition' ? { present: read.rule.present, ...read.rule.duration, span: undefined, review: read.needsReview } : null;
  };

  it('after the condition: "lasting", "for", "of ... duration", "or more", two bounds', () => {
    expect(duration('inclusion', 'Migraine lasting longer than 2 years')).toMatchObject({ present: true, minDays: 731, review: false });
    expect(duration('inclusion', 'Psoriasis for a minimum of 6 months')).toMatchObject({ minDays: 183, review: false });
    expect(duration('inclusion', 'Asthma present for 12 weeks or longer')).toMatchObject({ minDays: 84 });
    expect(duration('inclusion', 'Sciatica for no more than 8 weeks')).toMatchObject({ maxDays: 56, review: false });
    expect(duration('inclusion', 'Sciatica for at least 4 weeks but less than 1 year')).toMatchObject({ minDays: 28, maxDays: 365 });
    expect(duration('inclusion', 'Psoriasis of at least 6 months duration')).toMatchObject({ minDays: 183 });
  });

  it('time since diagnosis is how long the condition has been there', () => {
    expect(duration('inclusion', 'Diagnosed with ulcerative colitis at least 6 months prior to enrollment')).toMatchObject({ minDays: 183, review: false });
    expect(duration('inclusion', 'Psoriasis diagnosed more than 1 year ago')).toMatchObject({ minDays: 365 });
  });

  it('before the condition: "a 2-year history of", "more than 6 weeks of"', () => {
    expect(duration('inclusion', 'A 2-year history of migraine')).toMatchObject({ minDays: 731 });
    expect(duration('inclusion', 'More than 6 weeks of sciatica')).toMatchObject({ minDays: 42 });
  });

  it('"symptoms" and "pain" with no condition named are the trial\'s own condition', () => {
    const pain = readTextRule('inclusion', 'Pain for at least 3 months', { trialConcepts: trialConceptsOf(['Osteoarthritis', 'Fibromyalgia']) });
    expect(pain.rule).toMatchObject({ type: 'condition', present: true, duration: { minDays: 91 } });
    // "Pain" is the painful one of the trial's conditions, and a person checks that reading.
    expect((pain.rule as { concepts: Array<{ name: string }> }).concepts.map((concept) => concept.name)).toEqual(['fibromyalgia']);
    expect(pain.needsReview).toBe(true);
    // Only one condition in the trial: nothing to check.
    expect(readTextRule('inclusion', 'Duration of symptoms: 6 weeks or more', { trialConcepts: trialConceptsOf(['Sciatica']) })).toMatchObject({
      rule: { type: 'condition', condition: 'sciatica', duration: { minDays: 42 } },
      needsReview: false,
    });
    // An exclusion of short symptoms: must not have had the condition for less than that.
    expect(readTextRule('exclusion', 'Symptoms of under 4 weeks', { trialConcepts: trialConceptsOf(['Sciatica']) }).rule).toMatchObject({
      present: false,
      duration: { maxDays: 28 },
    });
    // No trial condition to name: no rule.
    expect(readTextRule('inclusion', 'Pain for at least 3 months').rule).toBeNull();
    // "Symptoms" of a trial whose only condition is not painful are not "pain".
    expect(readTextRule('inclusion', 'Pain for at least 3 months', { trialConcepts: trialConceptsOf(['Asthma']) }).rule).toBeNull();
  });

  it("an exclusion of the trial's own condition stands with a duration beside it", () => {
    const trialConditions = new Set(['D012585']);
    expect(readTextRule('exclusion', 'Sciatica for less than 6 weeks', { trialConditions }).rule).toMatchObject({ present: false, duration: { maxDays: 42 } });
    expect(readTextRule('exclusion', 'Severe sciatica', { trialConditions }).rule).toBeNull();
  });

  it('never takes the duration of something else', () => {
    // A treatment's duration, a stable dose, a disease-free interval, a plain "for 6 weeks" (no bound).
    expect(duration('inclusion', 'Migraine not relieved by physiotherapy for at least 6 weeks')).not.toHaveProperty('minDays');
    expect(duration('inclusion', 'Asthma on a stable inhaler dose for at least 3 months')).not.toHaveProperty('minDays');
    expect(duration('exclusion', 'Cancer, unless disease-free for more than 5 years')).not.toHaveProperty('minDays');
    expect(duration('inclusion', 'Psoriasis for 6 months')).toMatchObject({ review: true });
    expect(duration('inclusion', 'Psoriasis for 6 months')).not.toHaveProperty('minDays');
    // A window stays a window.
    expect(readTextRule('exclusion', 'Stroke within the last 6 months').rule).toMatchObject({ within: { value: 6, unit: 'months' } });
    expect(readTextRule('exclusion', 'Stroke within the last 6 months').rule).not.toHaveProperty('duration');
  });
});

describe('the patient question and the prescreen engine', () => {
  const criteria = [
    { id: 'c1', position: 0, kind: 'inclusion' as const, text: 'Knee pain for at least 3 months', rule: atLeast3Months, needsReview: false },
    { id: 'c2', position: 1, kind: 'exclusion' as const, text: 'Knee pain of less than 6 weeks', rule: { ...under6Weeks, present: false }, needsReview: false },
  ];
  const { blocks } = generateStudyBlocks({ criteria });
  const asked = blocks.flatMap((block) => block.questions).filter((question) => question.criterionLinks.length);

  it('asks the duration in the question, in English and Spanish, one question per duration', () => {
    expect(asked.map((question) => question.wording.chat.en)).toEqual([
      'Have you had knee pain for at least 3 months?',
      // A maximum asks when it began, which someone who never had it answers "no".
      'Did you first have knee pain less than 6 weeks ago?',
    ]);
    // "knee pain" names no concept, so no Spanish name: no Spanish sentence with the English words (decision 223).
    expect(asked[0].wording.chat.es).toBeUndefined();
    expect(asked[0].needsSpanish).toBe(true);
    // A concept with a Spanish name is asked with the duration in Spanish.
    const asthma = { ...atLeast3Months, condition: 'asthma', concepts: [{ id: 'mesh:D001249', name: 'asthma' }] };
    const spanish = generateStudyBlocks({ criteria: [{ ...criteria[0], rule: asthma }] }).blocks.flatMap((block) => block.questions);
    expect(spanish.find((question) => question.criterionLinks.length)?.wording.chat.es).toBe('¿Ha tenido asma durante al menos 3 meses?');
  });

  it('the engine decides each criterion from its own answer', () => {
    const run = (first: boolean, second: boolean) =>
      evaluatePrescreen({
        blocks,
        criteria: criteria.map(({ id, kind, text }) => ({ id, kind, text })),
        answers: [
          { questionId: asked[0].id, value: first },
          { questionId: asked[1].id, value: second },
        ],
        today: '2026-06-15',
      });
    const status = (output: ReturnType<typeof run>) => output.evaluations.map((evaluation) => evaluation.status);
    expect(status(run(true, false))).toEqual(['met', 'not_met']);
    expect(run(true, false).recommendation).toBe('PASS');
    // Pain for less than 3 months (or none): the inclusion is not met.
    expect(run(false, false).recommendation).toBe('FAIL');
    // Pain that began in the last 6 weeks: the exclusion applies.
    expect(status(run(true, true))).toEqual(['met', 'met']);
    expect(run(true, true).recommendation).toBe('FAIL');
  });

  it('answers become facts that say only what they said', () => {
    const facts = factsFromAnswers(
      [
        { criterionId: 'c1', rule: atLeast3Months, question: 'Have you had knee pain for at least 3 months?', answer: true },
        { criterionId: 'c2', rule: under6Weeks, question: 'Did you first have knee pain less than 6 weeks ago?', answer: false },
      ],
      'result-1',
      '2026-06-15',
    );
    // Yes to "at least 3 months": knee pain since 91 days ago or earlier. No to "less than 6 weeks": no pain, or
    // pain for longer; neither is recorded.
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ kind: 'condition', conceptId: kneePain.id, status: 'present', observedOn: '2026-03-16' });
  });
});

describe('the matcher', () => {
  const today = new Date('2026-06-15T12:00:00Z');
  const fact = (observedOn: string | null, status: MatchFact['status'] = 'present'): MatchFact => ({
    id: 'f1',
    kind: 'condition',
    conceptId: kneePain.id,
    name: 'knee pain',
    status,
    value: null,
    unit: null,
    valueText: null,
    observedOn,
    source: 'fhir',
  });
  const who = (...facts: MatchFact[]): MatchPerson => ({ dateOfBirth: null, sex: 'female', facts });
  const outcome = (rule: CriterionRule, person: MatchPerson, kind: 'inclusion' | 'exclusion' = 'inclusion') =>
    evaluateCriterion({ id: 'c1', kind, rule, ruleSource: 'text', needsReview: false, population: null }, person, today).outcome;

  it('a dated condition decides a minimum when it is old enough; a recent or undated one is unknown, never not met', () => {
    expect(outcome(atLeast3Months, who(fact('2025-01-10')))).toBe('met');
    // Known since two weeks ago: it may have begun earlier.
    expect(outcome(atLeast3Months, who(fact('2026-06-01')))).toBe('unknown');
    expect(outcome(atLeast3Months, who(fact(null)))).toBe('unknown');
    expect(outcome(atLeast3Months, who(fact(null, 'absent')))).toBe('not_met');
    expect(outcome(atLeast3Months, who())).toBe('unknown');
  });

  it('a condition known for longer than a maximum does not meet it; a recent one is unknown', () => {
    expect(outcome(under6Weeks, who(fact('2026-01-01')))).toBe('not_met');
    expect(outcome(under6Weeks, who(fact('2026-06-10')))).toBe('unknown');
    expect(outcome(under6Weeks, who(fact(null)))).toBe('unknown');
  });

  it('an exclusion of short symptoms: long-standing pain passes, recent pain is for a person', () => {
    const notShort = { ...under6Weeks, present: false } as const satisfies CriterionRule;
    expect(outcome(notShort, who(fact('2025-06-01')), 'exclusion')).toBe('met');
    expect(outcome(notShort, who(fact('2026-06-10')), 'exclusion')).toBe('unknown');
    expect(outcome(notShort, who(fact(null, 'absent')), 'exclusion')).toBe('met');
  });

  it('a past condition says nothing about how long it lasted', () => {
    expect(outcome({ ...atLeast3Months, history: true }, who(fact('2020-01-01', 'history')))).toBe('unknown');
  });
});

describe('"N or more" written before the unit (decision 140)', () => {
  it('reads "4 or more months" as at least 4 months, and "2 or fewer weeks" as less than that', () => {
    const trialConcepts = trialConceptsOf(['Sciatica']);
    const longer = readTextRule('inclusion', 'Duration of pain: 4 or more months', { trialConcepts });
    expect(longer.rule).toMatchObject({ type: 'condition', duration: { minDays: durationDays(4, 'months') } });
    const shorter = readTextRule('inclusion', 'Sciatica of 2 or fewer weeks');
    expect(shorter.rule).toMatchObject({ type: 'condition', duration: { maxDays: durationDays(2, 'weeks') } });
    // A count of something else is no duration of the condition.
    expect(readTextRule('inclusion', 'Sciatica, 2 or more episodes').rule).not.toHaveProperty('duration');
  });
});
