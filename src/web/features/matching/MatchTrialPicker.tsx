import { useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { Combobox } from '../../components/Combobox';
import { Label } from '../../components/ui';
import { TRIAL_SEARCH_LABEL, TRIAL_SEARCH_PLACEHOLDER, trialOption } from '../trials/trial-option';
import { useTrialsQuery } from '../trials/queries';

/** "Match to a trial" on the candidates list: choosing a trial opens its matcher over these candidates. */
export function MatchTrialPicker() {
  const id = useId();
  const navigate = useNavigate();
  const trials = useTrialsQuery();
  const options = (trials.data?.trials ?? []).filter((trial) => trial.status !== 'closed').map(trialOption);
  if (!trials.isSuccess || options.length === 0) return null;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>Match to a trial</Label>
      <Combobox
        id={id}
        options={options}
        value={undefined}
        onChange={(trialId) => void navigate({ to: '/trial-matcher/$id', params: { id: trialId } })}
        placeholder="Choose a trial"
        searchLabel={TRIAL_SEARCH_LABEL}
        searchPlaceholder={TRIAL_SEARCH_PLACEHOLDER}
        listLabel="Trials"
        noun="trial"
        compact
      />
    </div>
  );
}
