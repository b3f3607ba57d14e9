import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { isA, vocabulary } from '../../../src/server/features/trials/vocabulary';

/**
 * Decision 192: a name narrower than the concept it used to read as keeps its own concept (cognitive impairment,
 * psoriatic arthritis, a fragility fracture), and one medicine or one target of a class is a member of it, in review.
 * Every phrasing here is new wording, not a corpus record's.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const conceptIds = (kind: 'inclusion' | 'exclusion', text: string) => {
  const rule = read(kind, text).rule;
  return rule && 'concepts' in rule ? (rule.concepts ?? []).map((concept) => concept.id) : [];
};
const idOf = (words: string) => vocabulary().find(words, { reach: 'full' })[0]?.concept.id ?? '';

describe('a narrower name keeps its own concept', () => {
  it('reads cognitive impairment as itself, never as dementia', () => {
    expect(conceptIds('exclusion', 'Known cognitive impairment of any cause')).toEqual(['cohortly:cognitive-impairment']);
    expect(conceptIds('exclusion', 'Participants with cognitive deficits that limit self-report')).not.toContain('cohortly:dementia');
    // Alzheimer's disease is MeSH's own heading under dementia (decision 346): a rule of dementia still takes it by the tree.
    expect(conceptIds('exclusion', "A diagnosis of Alzheimer's disease")).toEqual([idOf('Alzheimer disease')]);
    expect(isA(idOf('Alzheimer disease'), 'cohortly:dementia')).toBe(true);
  });

  it('lets a record of dementia, or of a kind of dementia, meet a rule of cognitive impairment', () => {
    expect(isA(idOf('dementia'), 'cohortly:cognitive-impairment')).toBe(true);
    expect(isA(idOf('vascular dementia'), 'cohortly:cognitive-impairment')).toBe(true);
    expect(isA('cohortly:cognitive-impairment', idOf('dementia'))).toBe(false);
  });

  it('reads psoriatic arthritis as its own heading, never as skin psoriasis', () => {
    expect(conceptIds('exclusion', 'Active psoriatic arthritis requiring a biologic')).not.toContain('cohortly:psoriasis');
    expect(conceptIds('exclusion', 'Plaque-free skin: no psoriasis')).toContain('cohortly:psoriasis');
    // A record of psoriatic arthritis still meets a rule of psoriasis (MeSH files it under psoriasis).
    expect(isA(idOf('psoriatic arthritis'), 'cohortly:psoriasis')).toBe(true);
  });

  it('reads a fragility fracture as an osteoporotic fracture, which is still a broken bone', () => {
    for (const text of ['Two or more low-trauma fractures since age 50', 'A prior fragility fracture of the hip or spine'])
      expect(conceptIds('exclusion', text), text).toContain('cohortly:osteoporotic-fracture');
    expect(conceptIds('exclusion', 'Broken bone in the last 6 months')).toEqual(['cohortly:fracture']);
    expect(isA('cohortly:osteoporotic-fracture', 'cohortly:fracture')).toBe(true);
    expect(isA('cohortly:fracture', 'cohortly:osteoporotic-fracture')).toBe(false);
  });
});

describe("one organ's transplant is that organ's", () => {
  it("reads a named organ's transplant as its own concept, with no review", () => {
    for (const [text, id] of [
      ['Prior renal transplant', 'cohortly:kidney-transplant'],
      ['Previous cardiac transplantation', 'cohortly:heart-transplant'],
      ['Has had a liver transplant', 'cohortly:liver-transplant'],
    ] as const) {
      expect(conceptIds('exclusion', text), text).toEqual([id]);
      expect(read('exclusion', text).needsReview, text).toBe(false);
    }
    expect(conceptIds('exclusion', 'Heart or lung transplant at any time')).toEqual(['cohortly:heart-transplant', 'cohortly:lung-transplant']);
  });

  it('lets each meet a rule of any organ transplant, never the reverse', () => {
    expect(conceptIds('exclusion', 'Any solid organ transplant')).toEqual(['cohortly:organ-transplant']);
    expect(isA('cohortly:kidney-transplant', 'cohortly:organ-transplant')).toBe(true);
    expect(isA(idOf('lung transplantation'), 'cohortly:organ-transplant')).toBe(true);
    expect(isA('cohortly:organ-transplant', 'cohortly:kidney-transplant')).toBe(false);
  });
});

describe('an epidural steroid injection is its own concept, a kind of spinal injection', () => {
  it('reads epidural steroids as the steroid injection, never as any injection at the spine', () => {
    expect(conceptIds('exclusion', 'Treatment with epidural steroids within 6 weeks before screening')).toEqual(['cohortly:epidural-steroid-injection']);
    expect(conceptIds('exclusion', 'Epidural corticosteroid injection in the previous 2 months')).toEqual(['cohortly:epidural-steroid-injection']);
    expect(conceptIds('exclusion', 'Prior facet injection or nerve block')).toEqual(['cohortly:epidural-injection']);
  });

  it('lets a record of an epidural steroid injection meet a rule of any spinal injection, never the reverse', () => {
    expect(isA('cohortly:epidural-steroid-injection', 'cohortly:epidural-injection')).toBe(true);
    expect(isA('cohortly:epidural-injection', 'cohortly:epidural-steroid-injection')).toBe(false);
  });
});

describe('one medicine or one target of a class is a member of it', () => {
  it('keeps a rule read from one named medicine of a class in review', () => {
    for (const text of ['Has ever received pembrolizumab', 'Earlier exposure to durvalumab', 'Current daily rosuvastatin', 'Regular use of apixaban'])
      expect(read('exclusion', text).needsReview, text).toBe(true);
  });

  it('keeps a PD-1, PD-L1 or CTLA-4 inhibitor, a subclass, in review', () => {
    for (const text of ['Has received a PD-1 inhibitor before', 'Earlier anti-PD-L1 treatment', 'Any CTLA-4 inhibitors in the past'])
      expect(read('exclusion', text).needsReview, text).toBe(true);
  });

  it('reads the class itself without review', () => {
    for (const text of ['Has received an immune checkpoint inhibitor before', 'Took NSAIDs in the last week']) {
      expect(read('exclusion', text).rule, text).not.toBeNull();
      expect(read('exclusion', text).needsReview, text).toBe(false);
    }
  });
});

describe('a tumour that has spread is one kind of cancer', () => {
  it('keeps an exclusion of metastases in review, since "no cancer" would refuse a cancer that never spread', () => {
    for (const text of ['Known tumour metastasis to any organ', 'Any metastatic tumor']) {
      const reading = read('exclusion', text);
      expect(reading.rule, text).toMatchObject({ type: 'condition', present: false });
      expect(reading.needsReview, text).toBe(true);
    }
    expect(read('exclusion', 'Any cancer').needsReview).toBe(false);
  });
});

describe('a histological kind of breast cancer is one member of it', () => {
  it('keeps a rule read from a ductal or lobular carcinoma in review', () => {
    for (const text of ['A diagnosis of ductal carcinoma in situ', 'A diagnosis of invasive lobular carcinoma']) {
      const reading = read('inclusion', text);
      expect(reading.rule, text).toMatchObject({ type: 'condition', present: true });
      expect(reading.needsReview, text).toBe(true);
    }
    expect(read('inclusion', 'A diagnosis of breast cancer').needsReview).toBe(false);
  });
});
