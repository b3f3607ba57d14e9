import { Link } from '@tanstack/react-router';
import { ArrowLeft, ArrowRight, CheckCircle2, Circle, CircleDashed } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { ONBOARDING_STEP_LABELS, ONBOARDING_STEPS, type OnboardingStep } from '../../../contract/onboarding-steps';
import type { Onboarding, OnboardingStepStatus } from '../../../contract/onboarding';
import { RecordLoadError } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, buttonClass, EmptyState, PageHeader } from '../../components/ui';
import { cn } from '../../lib/utils';
import { useIsGlobal } from '../trials/hooks';
import { stepPosition } from './format';
import { useMoveToStep, useOnboardingQuery } from './queries';
import { AgentsStep, ChecklistStep, OrganizationStep, OwnerStep, SequenceStep } from './steps';
import { SitesStep } from './SitesStep';
import { TrialStep } from './TrialStep';

const STATUS_WORDS: Record<OnboardingStepStatus, string> = { done: 'done', skipped: 'skipped', pending: 'to do' };

function StatusIcon({ status }: { status: OnboardingStepStatus }) {
  if (status === 'done') return <CheckCircle2 aria-hidden="true" className="h-5 w-5 shrink-0 text-green-700" />;
  if (status === 'skipped') return <CircleDashed aria-hidden="true" className="h-5 w-5 shrink-0 text-amber-700" />;
  return <Circle aria-hidden="true" className="h-5 w-5 shrink-0 text-slate-500" />;
}

/** The steps, each with its state; the one shown is marked current. Any step can be opened. */
function Stepper({ onboarding, current, onGo }: { onboarding: Onboarding; current: OnboardingStep; onGo: (step: OnboardingStep) => void }) {
  return (
    <nav aria-label="Onboarding steps">
      <ol className="grid gap-1">
        {onboarding.steps.map(({ step, status }, index) => {
          const content = (
            <>
              <StatusIcon status={status} />
              <span>
                {index + 1}. {ONBOARDING_STEP_LABELS[step]}
                <span className="sr-only"> ({STATUS_WORDS[status]})</span>
              </span>
            </>
          );
          const itemClass = 'flex items-center gap-2 rounded-md px-3 py-2 text-sm';
          return (
            <li key={step}>
              {step === current ? (
                // The step shown: not a link (it is open), marked as the current step.
                <span aria-current="step" className={cn(itemClass, 'bg-blue-50 font-semibold text-blue-900')}>
                  {content}
                </span>
              ) : (
                <Link
                  to="/admin/onboard/$onboardingId"
                  params={{ onboardingId: onboarding.id }}
                  search={{ step }}
                  onClick={() => onGo(step)}
                  className={cn(itemClass, 'text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700')}
                >
                  {content}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/**
 * /admin/onboard/{id}: the onboarding wizard. The step shown comes from the URL (a reload stays there),
 * else from where the admin last was; moving between steps remembers the step on the server too, so the
 * list's "Continue" opens it. Every step can be skipped and done later: the checklist says what is missing.
 */
export function OnboardingWizardPage({
  onboardingId,
  step,
  onStepChange,
}: {
  onboardingId: string;
  step: OnboardingStep | undefined;
  onStepChange: (step: OnboardingStep) => void;
}) {
  const isGlobal = useIsGlobal();
  const query = useOnboardingQuery(onboardingId);
  const move = useMoveToStep(onboardingId);
  const panel = useRef<HTMLDivElement>(null);
  const current = step ?? query.data?.currentStep;
  const previousStep = useRef(current);
  useEffect(() => {
    // Moving to another step puts the keyboard focus on its heading, where a screen reader starts reading.
    if (previousStep.current && current && previousStep.current !== current) panel.current?.querySelector<HTMLElement>('h2')?.focus();
    previousStep.current = current;
  }, [current]);

  if (!isGlobal) {
    return (
      <div>
        <PageHeader title="Onboard" />
        <EmptyState title="Onboarding is Cohortly's work">Switch to the Cohortly organization to continue this onboarding.</EmptyState>
      </div>
    );
  }
  if (query.isPending) return <Spinner label="Loading the onboarding" />;
  if (query.isError || !current) {
    return (
      <RecordLoadError
        error={query.error}
        heading="Onboarding"
        missing={{ heading: 'Onboarding not found', title: 'This onboarding does not exist' }}
        missingMessage="It may belong to an organization that was deleted."
        failed="Could not load the onboarding"
        onRetry={() => void query.refetch()}
        back={
          <Link to="/admin/onboard" className={buttonClass('link')}>
            Back to onboardings
          </Link>
        }
      />
    );
  }

  const onboarding = query.data;
  const index = ONBOARDING_STEPS.indexOf(current);
  const previous = ONBOARDING_STEPS[index - 1];
  const next = ONBOARDING_STEPS[index + 1];
  const done = onboarding.steps.find((item) => item.step === current)?.status === 'done';
  const goTo = (target: OnboardingStep) => {
    if (target !== onboarding.currentStep) move.mutate(target);
  };
  const go = (target: OnboardingStep) => {
    goTo(target);
    onStepChange(target);
  };

  const panels: Record<OnboardingStep, ReactNode> = {
    organization: <OrganizationStep onboarding={onboarding} />,
    owner: <OwnerStep onboarding={onboarding} />,
    sites: <SitesStep onboarding={onboarding} />,
    trial: <TrialStep onboarding={onboarding} onGo={go} />,
    agents: <AgentsStep onboarding={onboarding} onGo={go} />,
    sequence: <SequenceStep onboarding={onboarding} />,
    checklist: <ChecklistStep onboarding={onboarding} onGo={go} />,
  };

  return (
    <div className="grid gap-6">
      <PageHeader
        title={`Onboard ${onboarding.organizationName}`}
        description={
          <>
            {stepPosition(current)}
            {onboarding.completedAt && (
              <Badge tone="green" className="ml-2">
                Finished
              </Badge>
            )}
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[14rem_1fr]">
        <Stepper onboarding={onboarding} current={current} onGo={goTo} />
        <div className="grid min-w-0 content-start gap-4" ref={panel}>
          {panels[current]}
          <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-4">
            {previous ? (
              <Button variant="secondary" onClick={() => go(previous)}>
                <ArrowLeft aria-hidden="true" className="h-4 w-4" />
                Back: {ONBOARDING_STEP_LABELS[previous]}
              </Button>
            ) : (
              <span />
            )}
            {next && (
              <Button variant={done ? 'primary' : 'secondary'} onClick={() => go(next)}>
                {done ? 'Continue' : 'Skip for now'}: {ONBOARDING_STEP_LABELS[next]}
                <ArrowRight aria-hidden="true" className="h-4 w-4" />
              </Button>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
