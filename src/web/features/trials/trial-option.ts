import type { Trial, TrialStatus } from '../../../contract/trials';

/* A trial's status words and its Combobox option, apart from format.ts: list pages that only pick a trial should not load
   the criteria's rule words (durations, qualifiers) with them. */

export const STATUS_LABELS: Record<TrialStatus, string> = {
  draft: 'Draft',
  recruiting: 'Recruiting',
  paused: 'Paused',
  closed: 'Closed',
};
export const STATUS_TONES: Record<TrialStatus, 'slate' | 'blue' | 'green' | 'amber'> = {
  draft: 'blue',
  recruiting: 'green',
  paused: 'amber',
  closed: 'slate',
};

/** The search box of a trial Combobox. */
export const TRIAL_SEARCH_LABEL = 'Search trials by title or NCT id';
export const TRIAL_SEARCH_PLACEHOLDER = 'Title or NCT id';
/** A trial Combobox's words: spread them into it, with `loading` and `emptyText` as the page has them. */
export const TRIAL_PICKER = { searchLabel: TRIAL_SEARCH_LABEL, searchPlaceholder: TRIAL_SEARCH_PLACEHOLDER, listLabel: 'Trials', noun: 'trials' } as const;

/**
 * A trial as a Combobox option: its public title (or title), with its NCT id and status in words below
 * ("NCT01234567 · Recruiting"); the NCT id and the other title are searchable too.
 */
export function trialOption(trial: Pick<Trial, 'id' | 'title' | 'publicTitle' | 'nctId' | 'status'>): {
  value: string;
  label: string;
  description: string;
  keywords: string;
} {
  const label = trial.publicTitle || trial.title;
  return {
    value: trial.id,
    label,
    description: [trial.nctId, STATUS_LABELS[trial.status]].filter(Boolean).join(' · '),
    keywords: [trial.nctId, label === trial.title ? null : trial.title].filter(Boolean).join(' '),
  };
}
