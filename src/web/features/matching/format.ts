import type { MatchClass, MatchOutcome } from '../../../contract/matching';

export const CLASS_LABELS: Record<MatchClass, string> = { likely: 'Likely eligible', possible: 'Possibly eligible', excluded: 'Excluded' };
export const CLASS_TONES: Record<MatchClass, 'green' | 'blue' | 'slate'> = { likely: 'green', possible: 'blue', excluded: 'slate' };
export const CLASS_HINTS: Record<MatchClass, string> = {
  likely: 'Has the condition the trial is for, and every key fact met',
  possible: 'No reviewed criterion unmet; a key fact unknown or a rule to review',
  excluded: 'A reviewed criterion not met',
};

/** In eligibility terms: "Meets" a criterion means what the trial asks is true (an exclusion does not apply). */
export const OUTCOME_LABELS: Record<MatchOutcome, string> = { met: 'Meets', not_met: 'Does not meet', unknown: 'Unknown', not_applicable: 'Not applicable' };
export const OUTCOME_TONES: Record<MatchOutcome, 'green' | 'amber' | 'slate' | 'blue'> = {
  met: 'green',
  not_met: 'amber',
  unknown: 'slate',
  not_applicable: 'slate',
};

export const FACT_SOURCE_LABELS: Record<string, string> = {
  prescreen: 'Prescreen answer',
  import: 'Imported file',
  fhir: 'Health record (FHIR)',
  note: 'Clinical note',
  manual: 'Entered by staff',
};

export const percent = (score: number) => `${Math.round(score * 100)}%`;
