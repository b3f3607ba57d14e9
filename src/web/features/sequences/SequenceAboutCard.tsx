import { Combobox } from '../../components/Combobox';
import { OrganizationOptions } from '../../components/OrganizationOptions';
import { Textarea } from '../../components/Textarea';
import { Card, CardContent, CardHeader, CardTitle, Field, Input, Select } from '../../components/ui';
import { useMemo } from 'react';
import { useCreateTargets, useIsGlobal } from '../trials/hooks';
import { useTrialsQuery } from '../trials/queries';
import { TRIAL_PICKER, trialOption } from '../trials/trial-option';
import { DESCRIPTION_MAX, NAME_MAX, TRIGGER_LABELS, TRIGGERS } from './format';
import type { SequenceDraft } from './useSequenceDraft';

interface SequenceAboutCardProps {
  draft: SequenceDraft;
  /** Only a new sequence made by an internal admin asks for its organization. */
  askOrganization: boolean;
  organizationProblem: string | undefined;
  nameProblem: string | undefined;
}

/** The sequence's own fields: organization, name, description, trial, triggers and whether a reply ends it. */
export function SequenceAboutCard({ draft, askOrganization, organizationProblem, nameProblem }: SequenceAboutCardProps) {
  const isGlobal = useIsGlobal();
  const createTargets = useCreateTargets();
  const { organizationId, exitOnReply } = draft;
  const trialsQuery = useTrialsQuery(isGlobal && organizationId ? [organizationId] : undefined);
  const trialOptions = useMemo(
    () => (trialsQuery.data?.trials ?? []).filter((trial) => !isGlobal || !organizationId || trial.organizationId === organizationId).map(trialOption),
    [trialsQuery.data, isGlobal, organizationId],
  );
  const repliedBranch = exitOnReply && draft.steps.some((step) => step.type === 'branch' && step.condition === 'replied');
  return (
    <Card>
      <CardHeader>
        <CardTitle>About the sequence</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {askOrganization && createTargets && (
          <Field label="Organization" error={organizationProblem} className="max-w-md">
            <Select
              id="sequence-organization"
              value={organizationId}
              onChange={(event) => {
                draft.setOrganizationId(event.target.value);
                draft.setTrialId('');
              }}
            >
              <option value="">Choose the organization</option>
              <OrganizationOptions organizations={createTargets} />
            </Select>
          </Field>
        )}
        <Field label="Name" error={nameProblem} className="max-w-xl">
          <Input id="sequence-name" value={draft.name} maxLength={NAME_MAX} onChange={(event) => draft.setName(event.target.value)} />
        </Field>
        <Field label="Description (optional)" className="max-w-xl">
          <Textarea
            id="sequence-description"
            rows={2}
            maxLength={DESCRIPTION_MAX}
            value={draft.description}
            onChange={(event) => draft.setDescription(event.target.value)}
          />
        </Field>
        <Field
          label="Trial (optional)"
          hint={
            <>
              With a trial, triggers only enroll that trial’s candidates, and <code>{'{trialTitle}'}</code> and <code>{'{siteAddress}'}</code> are the trial’s.
            </>
          }
          className="max-w-xl"
        >
          <Combobox
            {...TRIAL_PICKER}
            id="sequence-trial"
            options={trialOptions}
            value={draft.trialId}
            onChange={draft.setTrialId}
            noneLabel="No trial: any candidate"
            loading={trialsQuery.isPending}
            placeholder="Choose a trial"
          />
        </Field>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium text-slate-800">Enroll automatically when</legend>
          <p className="text-xs text-slate-700">
            Candidates can always be enrolled by hand as well. Leave every box clear for a sequence you only fill by hand.
          </p>
          {TRIGGERS.map((trigger) => (
            <label key={trigger} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="h-4 w-4 accent-blue-700"
                checked={draft.triggers.includes(trigger)}
                onChange={(event) => draft.toggleTrigger(trigger, event.target.checked)}
              />
              {TRIGGER_LABELS[trigger]}
            </label>
          ))}
        </fieldset>
        <div className="grid gap-1">
          <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              className="h-4 w-4 accent-blue-700"
              checked={exitOnReply}
              aria-describedby="sequence-exit-on-reply-hint"
              onChange={(event) => draft.setExitOnReply(event.target.checked)}
            />
            End the sequence for a candidate when they reply
          </label>
          <p id="sequence-exit-on-reply-hint" className="pl-6 text-xs text-slate-700">
            A person reads the reply. Clear this to keep going after a reply, and decide with a branch step (“The candidate replied”).
          </p>
          {repliedBranch && (
            <p className="pl-6 text-xs text-amber-900" data-testid="replied-branch-note">
              A branch here asks whether the candidate replied, but a reply already ends the sequence: that branch only ever sees “did not”.
            </p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
