// No zod here: the candidate page's first JavaScript reads this limit (contract/matching.ts brings zod and the rule schemas).

/** The longest clinical note, in characters. */
export const CLINICAL_NOTE_MAX = 20_000;
