import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/** An allergy "attributed to compounds of similar chemical or biologic composition to X" is an allergy to X and its kin (decision 322). */
describe('an allergy to compounds like a named medicine', () => {
  it('names the medicine, and keeps its kin for a person to check', () => {
    const read = readTextRule('exclusion', 'Prior allergic reactions attributable to agents of similar chemical or biological composition to niraparib', {
      studyMedicines: ['niraparib'],
    });
    expect(read.rule).toMatchObject({ type: 'condition', present: false });
    expect(read.rule?.type === 'condition' && read.rule.condition).toMatch(/niraparib/);
    expect(read.needsReview).toBe(true);
    expect(read.unread ?? []).toEqual([]);
  });
});
