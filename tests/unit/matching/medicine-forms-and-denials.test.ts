import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { scorePlanOf } from '../../../src/server/features/matching/score';
import { matchFact, ruleCriterion } from '../../support/match-facts';

// Decision 205. Every note below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const medicines = (text: string) =>
  extractNoteFacts(`61-year-old woman. ${text}`, { today })
    .filter((fact) => fact.kind === 'medication')
    .map((fact) => `${fact.name} ${fact.status}${fact.conceptId ? '' : ' (no class)'}`);

describe('a medicine put on the skin, eye or nose is not its systemic class', () => {
  it.each([
    // A topical corticosteroid is a concept of its own, never the steroid pills (decision 373).
    ['Eczema managed with topical steroids for years.', ['a steroid cream or ointment (topical corticosteroid) present']],
    ['Applies mometasone ointment to the elbows at night.', ['mometasone ointment present (no class)']],
    ['Pimecrolimus cream to the eyelids, tacrolimus ointment to the neck.', ['tacrolimus ointment present (no class)']],
    ['Uses budesonide nasal spray every morning.', ['budesonide nasal spray present (no class)']],
    ['Given prednisolone eye drops after cataract surgery.', ['prednisolone eye drops present (no class)']],
  ])('%s', (text, expected) => {
    for (const name of expected) expect(medicines(text)).toContain(name);
    expect(medicines(text).some((name) => name.startsWith('steroid pills') || name.startsWith('medicines that weaken'))).toBe(false);
  });

  it('keeps the systemic medicine, and so its class, when the route is oral or both routes are named', () => {
    // A medicine MeSH names is the fact itself (decision 337); its class holds it by pharmacological action.
    expect(medicines('Takes methylprednisolone tablets, 8 mg a day.')).toContain('methylprednisolone present');
    expect(medicines('Has needed topical and oral steroids this winter.')).toContain('steroid pills or injections (such as prednisone) present');
    expect(medicines('On azathioprine 100 mg daily.')).toContain('azathioprine present');
    const steroids = ruleCriterion(
      { type: 'medication', medication: 'steroid pills', taking: false, concepts: [{ id: 'mesh:D005938', name: 'steroid pills' }] },
      'exclusion',
    );
    const person = (text: string): MatchPerson => ({
      dateOfBirth: '1965-01-01',
      sex: 'female',
      facts: extractNoteFacts(`61-year-old woman. ${text}`, { today }).map((fact) => matchFact('note')(fact)),
    });
    expect(evaluateCriterion(steroids, person('Takes methylprednisolone tablets, 8 mg a day.'), today).outcome).toBe('not_met');
    expect(evaluateCriterion(steroids, person('Applies mometasone ointment to the elbows at night.'), today).outcome).toBe('unknown');
  });
});

describe('a biologic named as one', () => {
  const biologic = 'a biologic medicine (injection or infusion)';
  it.each([
    ['Has never been on any biologic.', 'absent'],
    ['Biologic naive; methotrexate only so far.', 'absent'],
    ['Naive to biologics.', 'absent'],
    ['Switched to another biologic in March after losing response.', 'present'],
    ['Previously failed one biologic for loss of response.', 'history'],
  ])('%s', (text, status) => {
    expect(medicines(text)).toContain(`${biologic} ${status}`);
  });

  it('does not read biologic sex or a biologic parent as a medicine', () => {
    expect(medicines('Her biologic mother had lupus.')).toEqual([]);
    expect(medicines('Registered with a biologic sex of female.')).toEqual([]);
  });
});

const fact = matchFact('note');
const criterion = ruleCriterion;
const noSpineSurgery: MatchPerson = {
  dateOfBirth: null,
  sex: 'unknown',
  facts: [fact({ kind: 'condition', name: 'back or spine surgery', conceptId: 'cohortly:spine-surgery', status: 'absent' })],
};
const operation = (id: string, name: string, present: boolean): CriterionRule => ({ type: 'condition', condition: name, present, concepts: [{ id, name }] });

describe('"no prior spine surgery" clears the spine operations MeSH files elsewhere', () => {
  it.each([
    ['mesh:D017587', 'percutaneous diskectomy'],
    ['mesh:D007796', 'laminectomy'],
    ['mesh:D013123', 'spinal fusion'],
    ['mesh:D059526', 'foraminotomy'],
  ])('an exclusion of %s (%s) is met', (id, name) => {
    expect(evaluateCriterion(criterion(operation(id, name, false), 'exclusion'), noSpineSurgery, today).outcome).toBe('met');
  });

  it('never fails a criterion that wants the operation, and leaves a vertebroplasty and other surgery alone', () => {
    // "Patients not treated with discectomy" read as an exclusion of those without one: the denial does not decide it.
    expect(evaluateCriterion(criterion(operation('mesh:D017586', 'diskectomy', true), 'exclusion'), noSpineSurgery, today).outcome).toBe('unknown');
    expect(evaluateCriterion(criterion(operation('mesh:D054854', 'vertebroplasty', false), 'exclusion'), noSpineSurgery, today).outcome).toBe('unknown');
    expect(evaluateCriterion(criterion(operation('mesh:D006348', 'cardiac surgery', false), 'exclusion'), noSpineSurgery, today).outcome).toBe('unknown');
  });
});

describe('the score', () => {
  it('never weighs a met criterion below the same criterion left unknown', () => {
    const rules: CriterionRule[] = [
      operation('mesh:D007796', 'laminectomy', false),
      { type: 'medication', medication: 'a biologic', taking: false, concepts: [{ id: 'cohortly:biologics', name: 'a biologic' }] },
      { type: 'pregnancy', allowed: false },
      { type: 'site_judgement', reason: 'investigator_judgement' },
    ];
    for (const rule of rules)
      for (const needsReview of [true, false]) {
        const plan = scorePlanOf({ ...criterion(rule, 'exclusion'), needsReview });
        for (const unknown of plan.unknown) expect(plan.met).toBeGreaterThanOrEqual(unknown);
      }
  });
});
