import { describe, expect, it } from 'vitest';
import type { MatchCriterion, MatchFact, MatchPerson } from '../../../src/server/features/matching/evaluate';
import { matchTrial } from '../../../src/server/features/matching/target-condition';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { vocabulary } from '../../../src/server/features/trials/vocabulary';

/**
 * Decision 305: "another malignancy" never counts the trial's own cancer (or a form of it) against the person; any other
 * cancer in the window does. Criteria and facts are written for this file.
 */
const today = new Date('2026-06-15T12:00:00Z');
const idOf = (words: string) => vocabulary().find(words, { reach: 'full' })[0]?.concept.id ?? null;
let serial = 0;
const cancer = (name: string, observedOn: string, status: MatchFact['status'] = 'present'): MatchFact => ({
  id: `fact-${++serial}`,
  kind: 'condition',
  conceptId: idOf(name),
  name,
  status,
  value: null,
  unit: null,
  valueText: null,
  observedOn,
  source: 'fhir',
});
const person = (...facts: MatchFact[]): MatchPerson => ({ dateOfBirth: '1960-01-01', sex: 'female', facts });
/** A criterion read by the criteria reader, accepted by staff as read. */
const accepted = (kind: 'inclusion' | 'exclusion', text: string): MatchCriterion => ({
  id: 'other-cancer',
  kind,
  text,
  rule: readTextRule(kind, text).rule,
  ruleSource: 'text',
  needsReview: false,
  population: null,
});
const outcomeOf = (conditions: string[], criterion: MatchCriterion, who: MatchPerson) => {
  const match = matchTrial({ conditions, criteria: [criterion] }, who, today);
  return { outcome: match.outcomes.find((item) => item.criterionId === criterion.id)?.outcome, matchClass: match.matchClass };
};

describe("another cancer against the trial's own", () => {
  const withinFive = accepted('exclusion', 'Any other malignancy diagnosed during the past 5 years');

  it("keeps a person with the trial's own lung cancer eligible", () => {
    const result = outcomeOf(['Lung Cancer'], withinFive, person(cancer('lung cancer', '2026-03-01')));
    expect(result.outcome).not.toBe('not_met');
    expect(result.matchClass).not.toBe('excluded');
  });

  it("keeps a form of the trial's cancer, or its broader name, from counting", () => {
    expect(outcomeOf(['Lung Cancer'], withinFive, person(cancer('non-small cell lung cancer', '2026-02-01'))).outcome).not.toBe('not_met');
    expect(outcomeOf(['Non-Small Cell Lung Cancer'], withinFive, person(cancer('lung cancer', '2026-02-01'))).outcome).not.toBe('not_met');
  });

  it('excludes a person whose other cancer is within the window, and not one whose other cancer is older', () => {
    const recent = outcomeOf(['Lung Cancer'], withinFive, person(cancer('lung cancer', '2026-03-01'), cancer('breast cancer', '2024-05-20', 'history')));
    expect(recent.outcome).toBe('not_met');
    expect(recent.matchClass).toBe('excluded');
    const old = outcomeOf(['Lung Cancer'], withinFive, person(cancer('lung cancer', '2026-03-01'), cancer('breast cancer', '2016-04-02', 'history')));
    expect(old.outcome).toBe('met');
  });

  it('reads an inclusion asking for no other cancer the same way', () => {
    const none = accepted('inclusion', 'No other malignancy within the previous 5 years');
    expect(outcomeOf(['Lung Cancer'], none, person(cancer('lung cancer', '2026-03-01'))).outcome).not.toBe('not_met');
    expect(outcomeOf(['Lung Cancer'], none, person(cancer('lung cancer', '2026-03-01'), cancer('breast cancer', '2025-01-10', 'history'))).outcome).toBe(
      'not_met',
    );
  });

  it('counts no excepted cancer', () => {
    const excepting = accepted('exclusion', 'Another malignancy in the past 5 years, except treated basal cell carcinoma');
    expect(
      outcomeOf(['Lung Cancer'], excepting, person(cancer('lung cancer', '2026-03-01'), cancer('basal cell carcinoma', '2025-09-09', 'history'))).outcome,
    ).not.toBe('not_met');
  });

  it("counts no cancer when the trial's condition is cancer itself or one the vocabulary cannot place", () => {
    const lung = person(cancer('lung cancer', '2026-03-01'));
    expect(outcomeOf(['Solid Tumor'], withinFive, lung).outcome).not.toBe('not_met');
    expect(outcomeOf(['Zorblatt neoplastic entity'], withinFive, lung).outcome).not.toBe('not_met');
    expect(outcomeOf([], withinFive, lung).outcome).not.toBe('not_met');
  });

  it('counts any cancer in a trial of another disease', () => {
    const result = outcomeOf(['Systemic Sclerosis'], withinFive, person(cancer('breast cancer', '2025-02-02', 'history')));
    expect(result.outcome).toBe('not_met');
  });
});
