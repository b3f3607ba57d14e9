import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** Decision 336: tobacco or nicotine named only as an exception says nothing about smoking. Wording new to this file. */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('smoking named only as an exception', () => {
  it('gives no smoking rule; the substance the criterion is about is read instead', () => {
    for (const text of [
      'Moderate or severe substance use disorder in the last 6 months, other than tobacco',
      'Alcohol or drug dependence within 1 year (excluding nicotine dependence)',
    ]) {
      const rule = read('exclusion', text).rule;
      expect(rule?.type, text).not.toBe('smoking');
      expect(rule, text).toMatchObject({ type: 'condition', present: false });
    }
  });

  it('still reads smoking when smoking is the criterion', () => {
    expect(read('exclusion', 'Current smokers, other than occasional cigar users').rule?.type).toBe('smoking');
    expect(read('exclusion', 'Current tobacco smoker').rule).toMatchObject({ type: 'smoking', smoker: false });
  });
});
