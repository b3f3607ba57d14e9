import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { recognize } from '../../../src/server/features/trials/vocabulary/recognizer';

/**
 * Issue 30, decisions 290 and 291 (new wording, none a corpus record's): a substance with a word that reverses it is
 * never the substance, and a treatment joined to "post-"/"pre-" as the time of something else is never the treatment.
 */
type Kind = 'inclusion' | 'exclusion';
const concepts = (kind: Kind, text: string): string[] => {
  const rule = readTextRule(kind, text).rule as { concepts?: Array<{ name: string }> } | null;
  return (rule?.concepts ?? []).map((concept) => concept.name.toLowerCase());
};

describe('a reversed substance is never the substance (decision 290)', () => {
  it('deprivation, suppression, withdrawal, depletion and inhibitors leave the substance unread', () => {
    for (const text of [
      'Currently receiving testosterone deprivation',
      'Ongoing oestrogen suppression for breast cancer',
      'Underwent corticosteroid withdrawal in the last month',
      'Iron depletion requiring infusion',
      'Requires androgen-deprivation treatment',
      'On insulin inhibitors of any kind',
    ])
      for (const kind of ['inclusion', 'exclusion'] as const) {
        const read = concepts(kind, text);
        expect(
          read.some((name) => /^(?:testosterone|estrogens?|oestrogens?|androgens|iron|insulin|steroid|corticosteroid)/.test(name)),
          `${kind}: ${text}`,
        ).toBe(false);
      }
  });

  it('"anti-" and antagonist words read as MeSH\'s antagonist heading when it has one', () => {
    expect(concepts('exclusion', 'Any prior anti-oestrogen medicine')).toEqual(['estrogen antagonists']);
    expect(concepts('exclusion', 'Took anti-androgen tablets before enrolment')).toEqual(['androgen antagonists']);
    expect(concepts('exclusion', 'Androgen blockade started before screening')).not.toContain('androgens');
  });

  it('a heading that names the reversal itself, and the plain substance, read as before', () => {
    expect(concepts('exclusion', 'Current aromatase inhibitor use')).toEqual(['aromatase inhibitors']);
    expect(concepts('exclusion', 'Use of oral androgens')).toContain('androgens');
  });

  it('the recognizer holds it for every reader', () => {
    const names = recognize('Started on androgen deprivation last year').map((mention) => mention.name.toLowerCase());
    expect(names).not.toContain('androgens');
    expect(recognize('pseudo-gout flare').map((mention) => mention.name.toLowerCase())).not.toContain('gout');
  });
});

describe('a treatment joined to "post-"/"pre-" as a time is never the treatment (decision 291)', () => {
  it('post-transplant, pre-dialysis and post-chemotherapy values and periods require no treatment', () => {
    for (const text of [
      'Post-transplant nadir haemoglobin above 9 g/dL',
      'Pre-dialysis sodium under 130 mmol/L',
      'Post-chemotherapy recovery period of six weeks',
      'Post-surgery window of two weeks completed',
    ])
      for (const kind of ['inclusion', 'exclusion'] as const) {
        const read = concepts(kind, text);
        expect(
          read.some((name) => /transplant|dialysis|chemotherapy|surg/.test(name)),
          `${kind}: ${text}`,
        ).toBe(false);
      }
  });

  it('a disease named with a time word still reads as the disease', () => {
    expect(concepts('exclusion', 'Post-surgical pain lasting over three months')).toEqual(['postoperative pain']);
    expect(concepts('exclusion', 'Prior lung transplant')).toEqual(expect.arrayContaining([expect.stringMatching(/transplant/)]));
  });
});
