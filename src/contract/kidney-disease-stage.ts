/**
 * The stages of chronic kidney disease that the filtration rate alone defines (KDIGO 2012, decision 379): G3a 45-59,
 * G3b 30-44, G4 15-29, G5 under 15 mL/min/1.73 m²; stage 3 is 3a and 3b together. Stages 1 and 2 also need kidney damage
 * beyond the rate, so they are not here. A criterion's stages are read as the eGFR (criteria/kidney-stages.ts); a
 * note's stage is written into the kidney disease fact ("CKD stage 4") and bounds the eGFR it implies. No zod here.
 */
export const KIDNEY_STAGE_EGFR: Readonly<Record<string, readonly [number, number]>> = {
  '3a': [45, 60],
  '3b': [30, 45],
  '3': [30, 60],
  '4': [15, 30],
  '5': [0, 15],
};

const ROMAN: Record<string, string> = { iii: '3', iiia: '3a', iiib: '3b', iv: '4', v: '5' };

/** A stage as written ("IV", "3b", "IIIa") in the table's form ("4", "3b", "3a"), or null for a stage it lacks. */
export function kidneyStageOf(written: string): string | null {
  const stage = ROMAN[written.toLowerCase()] ?? written.toLowerCase();
  return stage in KIDNEY_STAGE_EGFR ? stage : null;
}

/** The words a kidney disease fact's name carries for its stage. */
export const kidneyStageLabel = (stage: string) => `CKD stage ${stage}`;
/** The stage a fact's name carries, read back. */
export const KIDNEY_STAGE_LABEL = /\bCKD stage (3a|3b|3|4|5)\b/;
