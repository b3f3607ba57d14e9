import { forwardRef } from 'react';
import { Combobox, type ComboboxProps } from '../../components/Combobox';
import { TRIAL_SEARCH_LABEL, TRIAL_SEARCH_PLACEHOLDER } from './trial-option';

type TrialComboboxProps = Omit<ComboboxProps, 'searchLabel' | 'searchPlaceholder' | 'listLabel' | 'noun'> & {
  /** The trials are still loading: the button says so and waits. */
  loading?: boolean;
  /** The button's text when there is no trial to choose. */
  emptyText?: string;
};

/**
 * A Combobox of trials (options from `trialOption`), searchable by title or NCT id. The button says "Loading
 * trials…" or `emptyText` while there is nothing to choose, and is disabled then unless a `noneLabel` choice
 * stays open.
 */
export const TrialCombobox = forwardRef<HTMLButtonElement, TrialComboboxProps>(function TrialCombobox(
  { loading = false, emptyText = 'No trials yet', placeholder = 'Choose a trial', disabled, ...props },
  ref,
) {
  const empty = props.options.length === 0;
  return (
    <Combobox
      ref={ref}
      {...props}
      disabled={disabled ?? (loading || (empty && !props.noneLabel))}
      placeholder={loading ? 'Loading trials…' : empty ? emptyText : placeholder}
      searchLabel={TRIAL_SEARCH_LABEL}
      searchPlaceholder={TRIAL_SEARCH_PLACEHOLDER}
      listLabel="Trials"
      noun="trials"
    />
  );
});
