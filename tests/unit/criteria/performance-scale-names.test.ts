import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';

/**
 * Decision 268: the ECOG scale under its other names (Zubrod, the WHO's and the GOG's performance status), the values
 * written before the scale's name, and a performance status with no scale named whose values only the ECOG family has
 * (0 to 4; Karnofsky and Lansky count in tens). Every phrasing here is new wording, not a corpus sentence.
 */
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});

describe('the ECOG scale under another name', () => {
  it('reads Zubrod, WHO and GOG grades as ECOG grades', () => {
    expect(read('inclusion', 'Zubrod score 0 to 1 at registration').rule).toMatchObject({ type: 'performance_status', scale: 'ECOG', max: 1 });
    expect(read('inclusion', 'World Health Organisation performance status of 2 or less').rule).toMatchObject({ scale: 'ECOG', max: 2 });
    expect(read('inclusion', 'GOG performance status of 0 or 1').needsReview).toBe(false);
  });

  it('turns an excluded Zubrod grade into the grades still allowed', () => {
    expect(read('exclusion', 'Zubrod performance status of 3 or more').rule).toMatchObject({ scale: 'ECOG', min: null, max: 2 });
  });

  it('reads the values written before the scale they are on', () => {
    expect(read('inclusion', 'Performance status of 0-2 according to the ECOG scale').rule).toMatchObject({ scale: 'ECOG', max: 2 });
  });
});

describe('a performance status with no scale named', () => {
  it('reads grades from 0 to 4 as the ECOG family', () => {
    expect(read('inclusion', 'Performance status 0 to 2').rule).toMatchObject({ type: 'performance_status', scale: 'ECOG', max: 2 });
    expect(read('exclusion', 'Performance status (PS) of 3 or 4').rule).not.toMatchObject({ type: 'performance_status', min: 3 });
  });

  it('never guesses the scale of a value in tens', () => {
    expect(read('inclusion', 'Performance status of 60 or above').rule).toBeNull();
  });

  it('leaves a performance status judged in words to the judgement reader', () => {
    expect(read('exclusion', 'Performance status too poor to travel to the clinic, as the treating physician judges').rule).toMatchObject({
      type: 'site_judgement',
    });
    expect(read('inclusion', 'Performance status adequate and expected survival beyond 6 months').rule).not.toMatchObject({
      type: 'performance_status',
    });
  });
});
