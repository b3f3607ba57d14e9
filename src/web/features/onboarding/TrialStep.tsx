import { Link } from '@tanstack/react-router';
import { Play } from 'lucide-react';
import { toast } from 'sonner';
import type { OnboardingStep } from '../../../contract/onboarding-steps';
import type { Onboarding } from '../../../contract/onboarding';
import { FormError } from '../../components/FormError';
import { Badge, Button, buttonClass } from '../../components/ui';
import { apiProblem } from '../../lib/form-errors';
import { Made, StepCard } from './steps';
import { useStartRecruiting } from './queries';
import { TrialImportForm } from './TrialImportForm';

/** The first trial: imported from a ClinicalTrials.gov record, with the organization's sites marked as ours. */
export function TrialStep({ onboarding, onGo }: { onboarding: Onboarding; onGo: (step: OnboardingStep) => void }) {
  return onboarding.trial ? <ImportedTrial onboarding={onboarding} trial={onboarding.trial} /> : <TrialImportForm onboarding={onboarding} onGo={onGo} />;
}

/** The trial step once the trial is imported: what came in, and the way to start recruiting. */
function ImportedTrial({ onboarding, trial }: { onboarding: Onboarding; trial: NonNullable<Onboarding['trial']> }) {
  const startRecruiting = useStartRecruiting(onboarding.id);
  const canStart = trial.status === 'draft' || trial.status === 'paused';
  return (
    <StepCard step="trial" description="The organization's first trial, read from its ClinicalTrials.gov record.">
      <Made>
        Imported <span className="font-medium">{trial.title}</span>
        {trial.nctId && <> ({trial.nctId})</>}.
      </Made>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-3">
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-700">Status</dt>
          <dd>
            <Badge tone={trial.status === 'recruiting' ? 'green' : 'amber'}>
              {trial.status === 'recruiting' ? 'Recruiting' : trial.status === 'draft' ? 'Draft' : trial.status === 'paused' ? 'Paused' : 'Closed'}
            </Badge>
          </dd>
        </div>
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-700">Our sites</dt>
          <dd className="text-sm text-slate-900">
            {trial.ownSiteCount} of {trial.siteCount}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-700">Criteria</dt>
          <dd className="text-sm text-slate-900">{trial.criteriaCount}</dd>
        </div>
      </dl>
      {trial.status === 'draft' && (
        <p className="text-sm text-slate-800">
          The trial is a draft: review its criteria, then start recruiting (calls and the public chat need a recruiting trial).
        </p>
      )}
      <FormError>{startRecruiting.error ? apiProblem(startRecruiting.error).message : undefined}</FormError>
      <div className="flex flex-wrap gap-2">
        <Link to="/trials/$trialId" params={{ trialId: trial.id }} className={buttonClass('secondary')}>
          Review the trial
        </Link>
        {canStart && (
          <Button
            onClick={() => startRecruiting.mutate(trial.id, { onSuccess: () => toast.success('Recruiting started') })}
            disabled={startRecruiting.isPending}
          >
            <Play aria-hidden="true" className="h-4 w-4" />
            {startRecruiting.isPending ? 'Starting…' : 'Start recruiting'}
          </Button>
        )}
      </div>
    </StepCard>
  );
}
