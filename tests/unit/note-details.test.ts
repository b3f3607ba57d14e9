import { describe, expect, it } from 'vitest';
import { extractNoteFacts } from '../../src/server/features/matching/note-extractor';

const TODAY = new Date('2026-11-29T00:00:00Z');
const condition = (text: string, conceptName: RegExp) =>
  extractNoteFacts(text, { today: TODAY }).find((fact) => fact.kind === 'condition' && conceptName.test(fact.name));

describe('a condition read with its site, side, severity and start (note-details.ts)', () => {
  it('reads the part of the spine from a level or a spinal word in the condition’s own phrase', () => {
    expect(condition('MRI shows a right paracentral L5-S1 disc herniation compressing the S1 root.', /herniated/)?.name).toMatch(/\(lumbar, L5-S1\)$/);
    expect(condition('MRI of the neck: C5-C6 disc herniation with foraminal narrowing.', /herniated/)?.name).toMatch(/\(cervical, C5-C6\)$/);
    expect(condition('Calcified central T8-T9 disc herniation.', /herniated/)?.name).toMatch(/\(thoracic, T8-T9\)$/);
    // A level across two parts of the spine says neither; a side alone says nothing of the symptoms.
    expect(condition('A C7-T1 disc herniation.', /herniated/)?.name).toBe('a slipped (herniated) disc (C7-T1)');
    expect(condition('A left disc herniation.', /herniated/)?.name).toBe('a slipped (herniated) disc');
  });

  it('reads severity and course before the condition or in apposition after it, never from a neighbour', () => {
    expect(condition('Recurrent lumbar disc herniation.', /herniated/)?.name).toMatch(/\((?=.*recurrent)(?=.*lumbar)[^)]*\)$/);
    expect(condition('He has atopic dermatitis, moderate to severe, involving the hands.', /dermatitis/)?.name).toMatch(/moderate, severe\)$/);
    // "Severe" belongs to the back pain here, not to the asthma after "and".
    expect(condition('Severe back pain and asthma.', /asthma/)?.name).toBe('asthma');
  });

  it('dates a condition from a duration or a year attached to it, as the latest day it began', () => {
    expect(condition('Six weeks of neck pain radiating to the arm.', /neck pain/)?.observedOn).toBe('2026-10-18');
    expect(condition('Migraine since 2015, two attacks a month.', /migraine/i)?.observedOn).toBe('2015-12-31');
    expect(condition('Ulcerative colitis diagnosed 6 years ago.', /colitis/)?.observedOn).toBe('2020-11-29');
    expect(condition('Hidradenitis suppurativa for 9 years.', /hidradenitis/)?.observedOn).toBe('2017-11-29');
    expect(condition('A 39-year-old woman with migraine since age 20.', /migraine/i)?.observedOn).toBe('2007-11-29');
    // A duration of another complaint in the sentence is not this condition's.
    expect(condition('Fever for 3 days; known asthma.', /asthma/)?.observedOn).toBeNull();
    expect(condition('Hypertension.', /blood pressure/)?.observedOn).toBeNull();
  });

  it('reads one side from a left or right limb symptom, never from a lesion’s side (decision 183)', () => {
    expect(condition('Right-sided sciatica since the spring.', /sciatica/)?.name).toBe('sciatica (unilateral)');
    expect(condition('Dull ache in the lower back radiating down the left leg.', /sciatica/)?.name).toBe('sciatica (unilateral)');
    expect(condition('Left C6 radiculopathy after a fall.', /radiculopathy/)?.name).toMatch(/unilateral/);
    expect(condition('Pain in the lower back radiating into both legs.', /sciatica/)?.name).toBe('sciatica (bilateral)');
    // The disc's side is where it presses, not where the pain is.
    expect(condition('Right foraminal L3-L4 disc herniation.', /herniated/)?.name).toBe('a slipped (herniated) disc (lumbar, L3-L4)');
  });

  it('keeps the disc levels a note names, from before or after the condition and from a later mention (decision 183)', () => {
    expect(condition('Imaging shows a C5-6 herniated disc.', /herniated/)?.name).toBe('a slipped (herniated) disc (cervical, C5-C6)');
    expect(condition('Large disc herniation at the L3-L4 level.', /herniated/)?.name).toBe('a slipped (herniated) disc (lumbar, L3-L4)');
    expect(condition('Herniated disc at L4-L5. A smaller herniated disc at L5-S1 also.', /herniated/)?.name).toBe(
      'a slipped (herniated) disc (lumbar, L4-L5, L5-S1)',
    );
  });
});
