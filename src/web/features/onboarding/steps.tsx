import { CopyField } from '../../components/CopyButton';
import { Link } from '@tanstack/react-router';
import { AlertTriangle, CheckCircle2, CircleAlert, ExternalLink, Mail, Sparkles, Workflow } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ONBOARDING_STEP_LABELS, type OnboardingStep } from '../../../contract/onboarding-steps';
import {
  DEFAULT_CHAT_AGENT,
  DEFAULT_VOICE_AGENT,
  STARTER_SEQUENCE_TEMPLATE_KEYS,
  STARTER_SEQUENCE_TEMPLATES,
  type ChecklistItem,
  type ChecklistState,
  type Onboarding,
  type StarterSequenceTemplateKey,
} from '../../../contract/onboarding';
import { ErrorCard } from '../../components/ErrorCard';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, Field, Input, SubmitButton } from '../../components/ui';
import { formatDate, formatDateTime } from '../../lib/utils';
import { apiProblem } from '../../lib/form-errors';
import { sequenceStepWords } from './format';
import { useChecklistQuery, useCompleteOnboarding, useCreateAgents, useCreateStarterSequence, useInviteOwner } from './queries';

/** A step's panel: its heading (focused when the step opens), what it is for, and its content. */
export function StepCard({ step, description, children }: { step: OnboardingStep; description: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <h2 tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
          {ONBOARDING_STEP_LABELS[step]}
        </h2>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
    </Card>
  );
}

/** A line saying what a step made (green tick), or what is still to do. */
export function Made({ children }: { children: ReactNode }) {
  return (
    <p className="flex items-start gap-2 text-sm text-slate-900">
      <CheckCircle2 aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-green-700" />
      <span>{children}</span>
    </p>
  );
}

export function OrganizationStep({ onboarding }: { onboarding: Onboarding }) {
  return (
    <StepCard step="organization" description="The organization was created when this onboarding started.">
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-3">
        {[
          ['Name', onboarding.organizationName],
          ['Slug', onboarding.organizationSlug],
          ['Public id (chat link)', onboarding.organizationPublicId],
        ].map(([term, value]) => (
          <div key={term}>
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-700">{term}</dt>
            <dd className="font-mono text-sm text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-slate-700">
        Started {formatDateTime(onboarding.createdAt)}
        {onboarding.startedByName && <> by {onboarding.startedByName}</>}. Rename it on{' '}
        <Link to="/admin/organizations" className="text-blue-700 underline underline-offset-4 hover:text-blue-900">
          Organizations
        </Link>
        .
      </p>
    </StepCard>
  );
}

export function OwnerStep({ onboarding }: { onboarding: Onboarding }) {
  const invite = useInviteOwner(onboarding.id);
  const owner = onboarding.owner;
  const [email, setEmail] = useState(owner && owner.status !== 'member' ? owner.email : '');
  const problem = invite.error ? apiProblem(invite.error) : null;
  const emailError = problem?.details.find((detail) => detail.path === 'email')?.message;

  // The link of the invitation just sent: without a mail server nobody else delivers it (issue 32).
  const [invitationUrl, setInvitationUrl] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate(
      { email: email.trim() },
      {
        onSuccess: (saved) => {
          setInvitationUrl(saved.ownerInvitationUrl ?? null);
          toast.success(`Invitation sent to ${saved.owner?.email ?? email.trim()}`);
        },
      },
    );
  };

  return (
    <StepCard
      step="owner"
      description="The organization's first owner gets an email with a link to create their account. Owners add the rest of their staff from Users."
    >
      {owner?.status === 'member' && <Made>{owner.email} has signed up and owns the organization.</Made>}
      {owner?.status === 'invited' && (
        <Made>
          Invitation sent to <span className="font-medium">{owner.email}</span>: waiting for them to sign up (the link is valid for 7 days).
        </Made>
      )}
      {owner?.status === 'invited' && invitationUrl && (
        <div className="grid max-w-xl gap-1">
          <CopyField id="owner-invitation-url" label="Copy invitation link" value={invitationUrl} />
          <p className="text-xs text-slate-700">Send it to them yourself if the email does not arrive (it does not where no mail server is set up).</p>
        </div>
      )}
      {owner?.status === 'invited' && !invitationUrl && (
        // The link is never stored in the clear: after a reload it is in the kept mail, where no mail server sends it.
        <p className="text-sm text-slate-700">
          Email not arriving? Where no mail server is set up, the invitation is kept in the{' '}
          <Link to="/admin/mail-outbox" className="font-medium text-blue-800 underline">
            Mail outbox
          </Link>
          : open it there to copy the link.
        </p>
      )}
      {owner?.status === 'expired' && (
        <FormError announce={false} className="flex items-start gap-2">
          <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          The invitation to {owner.email} expired: send a new one.
        </FormError>
      )}
      {owner?.status !== 'member' && (
        <form onSubmit={onSubmit} noValidate className="grid gap-3 sm:grid-cols-[minmax(0,24rem)_auto] sm:items-start">
          <Field label="Owner's email" error={emailError} hint={owner ? 'A new invitation replaces the one sent before.' : undefined}>
            <Input type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} />
          </Field>
          <SubmitButton pending={invite.isPending} pendingLabel="Sending…" className="sm:mt-6" icon={<Mail aria-hidden="true" className="h-4 w-4" />}>
            {owner ? 'Send a new invitation' : 'Send invitation'}
          </SubmitButton>
          <FormError className="sm:col-span-2">{problem && !emailError ? problem.message : undefined}</FormError>
        </form>
      )}
    </StepCard>
  );
}

export function AgentsStep({ onboarding, onGo }: { onboarding: Onboarding; onGo: (step: OnboardingStep) => void }) {
  const create = useCreateAgents(onboarding.id);
  const { trial, prescreenForm, chatAgent, voiceAgent } = onboarding;
  const allMade = Boolean(prescreenForm?.status === 'published' && chatAgent && voiceAgent);
  const problem = create.error ? apiProblem(create.error) : null;

  if (!trial) {
    return (
      <StepCard step="agents" description="A prescreen form generated from the trial's criteria, a chat agent and a prescreen voice agent asking it.">
        <p className="text-sm text-slate-800">The agents ask the questions of the trial's prescreen form: import the first trial before creating them.</p>
        <div>
          <Button variant="secondary" onClick={() => onGo('trial')}>
            Go to the trial step
          </Button>
        </div>
      </StepCard>
    );
  }
  return (
    <StepCard
      step="agents"
      description={`For ${trial.title}: a prescreen form generated from its ${trial.criteriaCount} criteria and published, the chat agent of the organization's public chat page, and a prescreen voice agent. Both speak English and Spanish; edit their words later on their own screens.`}
    >
      <ul className="grid gap-3">
        <li>
          {prescreenForm ? (
            <Made>
              Prescreen form{' '}
              <Link
                to="/admin/prescreen-forms/$formId"
                params={{ formId: prescreenForm.id }}
                className="font-medium text-blue-700 underline underline-offset-4 hover:text-blue-900"
              >
                {prescreenForm.name}
              </Link>{' '}
              ({prescreenForm.status}, {prescreenForm.questionCount === 1 ? '1 question' : `${prescreenForm.questionCount} questions`}).
            </Made>
          ) : (
            <p className="text-sm text-slate-800">A prescreen form with questions for the trial's criteria, published.</p>
          )}
        </li>
        <li>
          {chatAgent ? (
            <Made>
              Chat agent{' '}
              <Link to="/admin/chat-agents" className="font-medium text-blue-700 underline underline-offset-4 hover:text-blue-900">
                {chatAgent.name}
              </Link>
              {chatAgent.active ? '' : ' (inactive)'}.
            </Made>
          ) : (
            <p className="text-sm text-slate-800">
              Chat agent “{DEFAULT_CHAT_AGENT.name}”, greeting: “{DEFAULT_CHAT_AGENT.greeting.en}”
            </p>
          )}
        </li>
        <li>
          {voiceAgent ? (
            <Made>
              Prescreen voice agent{' '}
              <Link to="/admin/voice-agents" className="font-medium text-blue-700 underline underline-offset-4 hover:text-blue-900">
                {voiceAgent.name}
              </Link>
              {voiceAgent.active ? '' : ' (inactive)'}.
            </Made>
          ) : (
            <p className="text-sm text-slate-800">
              Prescreen voice agent “{DEFAULT_VOICE_AGENT.name}”, opening: “{DEFAULT_VOICE_AGENT.firstMessage.en}”
            </p>
          )}
        </li>
      </ul>
      <FormError>{problem?.message}</FormError>
      {!allMade && (
        <div>
          <Button
            onClick={() => create.mutate({ chatAgent: true, voiceAgent: true }, { onSuccess: () => toast.success('Agents created') })}
            disabled={create.isPending}
          >
            <Sparkles aria-hidden="true" className="h-4 w-4" />
            {create.isPending ? 'Creating…' : prescreenForm || chatAgent || voiceAgent ? 'Create what is missing' : 'Create the agents'}
          </Button>
        </div>
      )}
    </StepCard>
  );
}

export function SequenceStep({ onboarding }: { onboarding: Onboarding }) {
  const create = useCreateStarterSequence(onboarding.id);
  const [template, setTemplate] = useState<StarterSequenceTemplateKey>('invite-follow-up');
  const problem = create.error ? apiProblem(create.error) : null;

  if (onboarding.sequence?.status === 'active') {
    return (
      <StepCard step="sequence" description="The outreach staff enroll candidates into.">
        <Made>
          Starter sequence{' '}
          <Link to="/admin/sequences" className="font-medium text-blue-700 underline underline-offset-4 hover:text-blue-900">
            {onboarding.sequence.name}
          </Link>{' '}
          created. It enrolls nobody by itself: staff enroll candidates, and can change its steps.
        </Made>
      </StepCard>
    );
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ template }, { onSuccess: (saved) => toast.success(`Created ${saved.sequence?.name ?? 'the sequence'}`) });
  };
  return (
    <StepCard
      step="sequence"
      description={`A ready-made outreach sequence${onboarding.trial ? ` for ${onboarding.trial.title}` : ''}, in English and Spanish; {firstName}, {trialTitle} and {organizationName} are filled in for each candidate.`}
    >
      {onboarding.sequence && <p className="text-sm text-slate-800">{onboarding.sequence.name} was archived: create another one.</p>}
      <form onSubmit={onSubmit} className="grid gap-4">
        <fieldset className="grid gap-3">
          <legend className="mb-1 text-sm font-medium text-slate-800">Template</legend>
          {STARTER_SEQUENCE_TEMPLATE_KEYS.map((key) => {
            const item = STARTER_SEQUENCE_TEMPLATES[key];
            return (
              <label
                key={key}
                className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-300 p-3 has-[:checked]:border-blue-700 has-[:checked]:bg-blue-50"
              >
                <input
                  type="radio"
                  name="template"
                  value={key}
                  checked={template === key}
                  onChange={() => setTemplate(key)}
                  className="mt-1 h-4 w-4 accent-blue-700"
                />
                <span className="grid gap-1">
                  <span className="font-medium text-slate-900">{item.name}</span>
                  <span className="text-sm text-slate-700">{item.description}</span>
                  <ol className="ml-4 list-decimal text-sm text-slate-800">
                    {item.steps.map((step) => (
                      <li key={step.key}>{sequenceStepWords(step)}</li>
                    ))}
                  </ol>
                </span>
              </label>
            );
          })}
        </fieldset>
        <FormError>{problem?.message}</FormError>
        <div>
          <SubmitButton pending={create.isPending} pendingLabel="Creating…" icon={<Workflow aria-hidden="true" className="h-4 w-4" />}>
            Create the sequence
          </SubmitButton>
        </div>
      </form>
    </StepCard>
  );
}

const STATE_BADGES: Record<ChecklistState, { tone: 'green' | 'amber' | 'slate'; label: string }> = {
  done: { tone: 'green', label: 'Done' },
  attention: { tone: 'amber', label: 'Check' },
  missing: { tone: 'slate', label: 'Missing' },
};

function StateIcon({ state }: { state: ChecklistState }) {
  if (state === 'done') return <CheckCircle2 aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />;
  if (state === 'attention') return <AlertTriangle aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" />;
  return <CircleAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-red-700" />;
}

const linkClass = 'inline-flex items-center gap-1 text-sm font-medium text-blue-700 underline underline-offset-4 hover:text-blue-900';

/** Where a checklist item is fixed: a step of this onboarding, or the screen of what it is about. */
function FixLink({ item, onboardingId, onGo }: { item: ChecklistItem; onboardingId: string; onGo: (step: OnboardingStep) => void }) {
  const fix = item.fix;
  if (!fix) return null;
  const label = (
    <>
      {fix.label}
      <span className="sr-only"> ({item.label})</span>
    </>
  );
  switch (fix.target) {
    case 'step':
      return (
        <Link
          to="/admin/onboard/$onboardingId"
          params={{ onboardingId }}
          search={{ step: fix.step }}
          onClick={() => fix.step && onGo(fix.step)}
          className={linkClass}
        >
          {label}
        </Link>
      );
    case 'trial':
      return (
        <Link to="/trials/$trialId" params={{ trialId: fix.id ?? '' }} className={linkClass}>
          {label}
          <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
        </Link>
      );
    case 'prescreen-form':
      return (
        <Link to="/admin/prescreen-forms/$formId" params={{ formId: fix.id ?? '' }} className={linkClass}>
          {label}
          <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
        </Link>
      );
    default: {
      const to = {
        'chat-agents': '/admin/chat-agents',
        'voice-agents': '/admin/voice-agents',
        sequences: '/admin/sequences',
        'phone-numbers': '/admin/phone-numbers',
        users: '/admin/users',
      }[fix.target];
      return (
        <Link to={to} className={linkClass}>
          {label}
          <ExternalLink aria-hidden="true" className="h-3.5 w-3.5" />
        </Link>
      );
    }
  }
}

export function ChecklistStep({ onboarding, onGo }: { onboarding: Onboarding; onGo: (step: OnboardingStep) => void }) {
  const query = useChecklistQuery(onboarding.id);
  const complete = useCompleteOnboarding(onboarding.id);
  const problem = complete.error ? apiProblem(complete.error) : null;

  let body: ReactNode;
  if (query.isPending) body = <Spinner label="Loading the checklist" />;
  else if (query.isError) body = <ErrorCard title="Could not load the checklist" error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const { items, doneCount, total } = query.data;
    body = (
      <>
        <p className="text-sm font-medium text-slate-900" data-testid="checklist-summary">
          {doneCount} of {total} done
        </p>
        <ul className="grid gap-2" aria-label="Checklist">
          {items.map((item) => (
            <li key={item.key} className="flex items-start gap-3 rounded-md border border-slate-200 p-3" data-testid={`checklist-${item.key}`}>
              <StateIcon state={item.state} />
              <div className="grid gap-1">
                <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                  {item.label}
                  <Badge tone={STATE_BADGES[item.state].tone}>{STATE_BADGES[item.state].label}</Badge>
                </p>
                <p className="text-sm text-slate-800">{item.detail}</p>
                <div>
                  <FixLink item={item} onboardingId={onboarding.id} onGo={onGo} />
                </div>
              </div>
            </li>
          ))}
        </ul>
      </>
    );
  }

  return (
    <StepCard
      step="checklist"
      description="What the organization has, and what it still needs to recruit. Each missing item links to where it is fixed; the list is read afresh each time."
    >
      {body}
      <FormError>{problem?.message}</FormError>
      {onboarding.completedAt ? (
        <Made>
          Onboarding finished on {formatDate(onboarding.completedAt)}.{' '}
          <Link to="/admin/onboard" className="text-blue-700 underline underline-offset-4 hover:text-blue-900">
            Back to onboardings
          </Link>
        </Made>
      ) : (
        <div>
          <Button
            onClick={() => complete.mutate(undefined, { onSuccess: () => toast.success(`Onboarding of ${onboarding.organizationName} finished`) })}
            disabled={complete.isPending}
          >
            {complete.isPending ? 'Finishing…' : 'Finish onboarding'}
          </Button>
        </div>
      )}
    </StepCard>
  );
}
