import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { measureOfHeader } from '../../../src/server/features/candidates/import-facts';
import { evaluateCriterion } from '../../../src/server/features/matching/evaluate';
import { generateStudyBlocks } from '../../../src/server/features/prescreen-forms/generator';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { ruleInWords } from '../../../src/web/features/trials/format';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 350: a pain score keeps the one region its pain is named for. Every criterion and note is new wording. */
const today = new Date('2026-06-15T12:00:00Z');
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text);
const judge = (criterion: string, note: string) =>
  evaluateCriterion(
    ruleCriterion(read('inclusion', criterion).rule as CriterionRule),
    { dateOfBirth: '1970-02-11', sex: 'male', facts: noteFacts(note, today) },
    today,
  ).outcome;

describe("the criteria reader keeps a pain score's region", () => {
  it('reads one named region as the measure, with nothing left for a person to check', () => {
    for (const [text, measure, value] of [
      ['Knee pain on walking of at least 5 on the NRS', 'knee pain score', 5],
      ['NPRS for shoulder pain greater than 3', 'shoulder pain score', 3],
      ['Lower back pain intensity of 50 mm or more on a 100 mm VAS', 'back pain score', 5],
      ['Hip pain rated at least 4 on the numeric rating scale', 'hip pain score', 4],
      ['Arm pain scored above 6 on the visual analogue scale', 'arm pain score', 6],
    ] as const) {
      const rule = read('inclusion', text);
      expect(rule.rule, text).toMatchObject({ type: 'lab', measure, value, unit: '/10' });
      // "On walking" is not a region: that one stays for a person.
      expect(rule.needsReview, text).toBe(text.includes('walking'));
    }
  });

  it('is shown to staff with its region and its scale in words', () => {
    expect(ruleInWords(read('inclusion', 'VAS knee pain of 40 mm or more').rule as CriterionRule)).toBe('knee pain score ≥ 4 out of 10');
  });

  it('leaves two regions, a region outside the list and a time the pain lasted for a person', () => {
    expect(read('inclusion', 'NRS of neck or arm pain at least 4')).toMatchObject({ rule: { measure: 'pain score' }, needsReview: true });
    expect(read('inclusion', 'Jaw pain VAS at least 4')).toMatchObject({ rule: { measure: 'pain score' }, needsReview: true });
    expect(read('inclusion', 'Neck pain for over 12 weeks and NRS at least 5')).toMatchObject({ rule: { measure: 'neck pain score' }, needsReview: true });
    // A time after the region's pain is how long, never the score.
    expect(read('inclusion', 'Hip pain of at least 6 weeks, rated on an NRS').rule).not.toMatchObject({ type: 'lab', value: 6 });
  });
});

describe("the patient is asked about that region's pain", () => {
  it('names the region in English and Spanish, one question per region', () => {
    const knee = {
      id: 'c1',
      position: 0,
      kind: 'inclusion' as const,
      text: 'Knee pain NRS of 4 or more',
      needsReview: false,
      rule: read('inclusion', 'Knee pain NRS of 4 or more').rule,
    };
    const any = {
      id: 'c2',
      position: 1,
      kind: 'inclusion' as const,
      text: 'NRS of 4 or more',
      needsReview: false,
      rule: read('inclusion', 'NRS of 4 or more').rule,
    };
    const asked = generateStudyBlocks({ criteria: [knee, any] }).blocks.flatMap((block) => block.questions);
    const wordings = asked.filter((question) => question.id.startsWith('pain-rating')).map((question) => question.wording.chat);
    expect(wordings.map((wording) => wording.en)).toEqual([
      expect.stringContaining('how strong is your knee pain on a usual day?'),
      expect.stringContaining('how strong is your pain on a usual day?'),
    ]);
    expect(wordings[0].es).toContain('su dolor de rodilla');
  });
});

describe('the matcher compares a region only with the same region', () => {
  it("meets a region's score with that region's rating, and leaves another region's or an unplaced one unknown", () => {
    expect(judge('Shoulder pain NRS at least 5', 'Right shoulder pain, rates it 7/10 at night.')).toBe('met');
    expect(judge('Shoulder pain NRS at least 5', 'Shoulder pain 2/10 since the injection.')).toBe('not_met');
    expect(judge('Shoulder pain NRS at least 5', 'Knee pain 8/10 after long walks.')).toBe('unknown');
    expect(judge('Shoulder pain NRS at least 5', 'Pain 8/10, worse at night.')).toBe('unknown');
    // A score of no region is met by any region's rating, as before.
    expect(judge('NRS of at least 5', 'Knee pain 8/10 after long walks.')).toBe('met');
  });
});

describe("an import's pain column", () => {
  it('keeps the region a header names with its scale', () => {
    expect(measureOfHeader('Knee pain NRS')?.measure.name).toBe('knee pain score');
    expect(measureOfHeader('VAS shoulder pain (/10)')).toMatchObject({ measure: { name: 'shoulder pain score' }, unit: '/10' });
    // A region without a scale may be a yes or a duration: no measure.
    expect(measureOfHeader('Knee pain')).toBeNull();
  });
});
