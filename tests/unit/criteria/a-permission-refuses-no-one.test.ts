import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { compileTrial, matchCompact } from '../../../src/server/features/matching/compiled';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { generateStudyBlocks } from '../../../src/server/features/prescreen-forms/generator';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { ruleCriterion } from '../../support/match-facts';

/** Decision 333: a criterion that only allows something refuses no one and asks nothing. Wording new to this file. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const today = new Date('2026-06-15T12:00:00Z');

describe('a bare permission', () => {
  it('is read as a permission, needing no person, whether it names a treatment or a condition', () => {
    for (const [kind, text] of [
      ['inclusion', 'Previous radiotherapy to the pelvis is permitted'],
      ['inclusion', 'Participants with mild psoriasis are allowed to take part'],
      ['inclusion', 'Patients may have received prior immunotherapy'],
      ['exclusion', 'Subjects may continue their usual inhaled bronchodilators'],
    ] as const)
      expect(read(kind, text), text).toMatchObject({ rule: { type: 'site_judgement', reason: 'permission' }, needsReview: false });
  });

  it('stays a site check when it allows on a proviso, a time, a dose or a count, or qualifies a requirement in brackets', () => {
    for (const text of [
      'Prior chemotherapy is allowed provided it ended at least 4 weeks before enrolment',
      'Inhaled steroids up to 500 mcg daily are permitted',
      'Two prior lines of systemic therapy are allowed',
      'Patients on a stable dose of thyroxine are allowed',
    ])
      expect(read('inclusion', text).rule, text).toMatchObject({ type: 'site_judgement', reason: 'protocol' });
    expect(read('inclusion', 'Admitted for elective caesarean section (twin pregnancies are eligible)').rule).not.toMatchObject({ reason: 'permission' });
  });

  it('is met by everyone in both matcher paths, and asks nothing at prescreen', () => {
    const rule = read('inclusion', 'Previous radiotherapy to the pelvis is permitted').rule as CriterionRule;
    const criterion = ruleCriterion(rule, 'inclusion');
    expect(evaluateCriterion(criterion, { dateOfBirth: '1970-01-01', sex: 'male', facts: [] }, today)).toMatchObject({ outcome: 'met' });
    const person = {
      dateOfBirth: '1970-01-01',
      sex: 'male' as const,
      completeness: 0,
      start: 0,
      end: 0,
      columns: { sig: new Int32Array(0), value: new Float64Array(0), hasValue: new Uint8Array(0), day: new Int32Array(0) },
    };
    expect(matchCompact(compileTrial([criterion], today), person)).toMatchObject({ metCount: 1, unknownIds: [] });
    const { blocks, uncoveredCriterionIds } = generateStudyBlocks({
      criteria: [{ id: 'c1', position: 0, kind: 'inclusion', text: 'Previous radiotherapy to the pelvis is permitted', rule, needsReview: false }],
    });
    expect(blocks.flatMap((block) => block.questions).filter((question) => question.criterionLinks.length)).toEqual([]);
    expect(uncoveredCriterionIds).toEqual(['c1']);
  });
});
