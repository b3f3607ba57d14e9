import { Link } from '@tanstack/react-router';
import { TabList } from '../../components/TabList';
import { Archive, Pencil, RotateCcw } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { toast } from 'sonner';
import type { EnrollmentStatus, Sequence, SequenceStep } from '../../../contract/sequences';
import { ConfirmDialog } from '../../components/dialogs';
import { SequenceLoadError } from './SequenceLoadError';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, buttonClass, Card, CardContent, CardHeader, CardTitle } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { formatDateTime } from '../../lib/utils';
import { apiProblem } from '../../lib/form-errors';
import { useIsGlobal } from '../trials/hooks';
import { EnrollCandidatesButton } from './dialogs';
import { EnrollmentsTab, EnrollmentTimelineDialog } from './Enrollments';
import {
  AGENT_LABELS,
  BRANCH_CONDITION_LABELS,
  plural,
  SEQUENCE_STATUS_LABELS,
  STEP_TYPE_LABELS,
  targetInWords,
  TRIGGER_LABELS,
  WAIT_UNIT_LABELS,
  WEEKDAY_LABELS,
} from './format';
import { useArchiveSequence, useSequenceQuery, useUpdateSequence } from './queries';

// Recharts only loads when someone opens the Statistics tab.
const StatisticsView = lazy(() => import('./StatisticsView'));

export const SEQUENCE_TABS = ['steps', 'enrollments', 'statistics'] as const;
export type SequenceTab = (typeof SEQUENCE_TABS)[number];
const TAB_LABELS: Record<SequenceTab, string> = { steps: 'Steps', enrollments: 'Enrollments', statistics: 'Statistics' };

export interface SequenceDetailSearch {
  tab: SequenceTab;
  status?: EnrollmentStatus;
  q?: string;
  page?: number;
  enrollment?: string;
  version?: number;
}

function Bilingual({ label, text }: { label: string; text: { en: string; es?: string } }) {
  return (
    <div className="grid gap-1 md:grid-cols-2 md:gap-3">
      <div>
        <p className="text-xs font-medium text-slate-700">{label} (English)</p>
        <p className="whitespace-pre-wrap break-words text-sm text-slate-900" lang="en">
          {text.en}
        </p>
      </div>
      <div>
        <p className="text-xs font-medium text-slate-700">{label} (Spanish)</p>
        {text.es ? (
          <p className="whitespace-pre-wrap break-words text-sm text-slate-900" lang="es">
            {text.es}
          </p>
        ) : (
          <p className="text-sm text-slate-700">None: Spanish speakers get the English text</p>
        )}
      </div>
    </div>
  );
}

function StepCard({ step, index, steps }: { step: SequenceStep; index: number; steps: readonly SequenceStep[] }) {
  let detail;
  switch (step.type) {
    case 'sms':
      detail = <Bilingual label="Message" text={step.message} />;
      break;
    case 'email':
      detail = (
        <div className="grid gap-2">
          <Bilingual label="Subject" text={step.subject} />
          <Bilingual label="Body" text={step.body} />
        </div>
      );
      break;
    case 'call':
      detail = <p className="text-sm text-slate-900">The {AGENT_LABELS[step.agentType].toLowerCase()} calls the candidate, within calling hours.</p>;
      break;
    case 'wait':
      detail = (
        <p className="text-sm text-slate-900">
          {step.untilTime
            ? `Until ${step.untilTime} on the candidate’s clock${step.untilWeekday ? `, on a ${WEEKDAY_LABELS[step.untilWeekday]}` : ''}.`
            : step.amount && step.unit
              ? `For ${step.amount} ${step.amount === 1 ? WAIT_UNIT_LABELS[step.unit].slice(0, -1) : WAIT_UNIT_LABELS[step.unit]}.`
              : ''}
        </p>
      );
      break;
    case 'branch':
      detail = (
        <p className="text-sm text-slate-900">
          {BRANCH_CONDITION_LABELS[step.condition]}: {targetInWords(step.ifTrue, steps)}. Otherwise: {targetInWords(step.ifFalse, steps)}.
        </p>
      );
      break;
  }
  return (
    <li className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4" data-testid="sequence-step">
      <div className="flex flex-wrap items-baseline gap-2">
        <h3 className="font-semibold text-slate-900">
          Step {index + 1}: {STEP_TYPE_LABELS[step.type]}
        </h3>
        <span className="font-mono text-xs text-slate-700">{step.key}</span>
      </div>
      {detail}
    </li>
  );
}

function StepsTab({ sequence }: { sequence: Sequence }) {
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          Version {sequence.currentVersion}, {plural(sequence.steps.length, 'step')}.
        </p>
        {sequence.status === 'active' && (
          <Link to="/admin/sequences/$id/edit" params={{ id: sequence.id }} className={buttonClass('secondary', 'sm')}>
            <Pencil aria-hidden="true" className="h-4 w-4" />
            Edit sequence
          </Link>
        )}
      </div>
      <ol className="grid gap-3">
        {sequence.steps.map((step, index) => (
          <StepCard key={`${index}-${step.key}`} step={step} index={index} steps={sequence.steps} />
        ))}
      </ol>
    </div>
  );
}

function ArchiveButton({ sequence }: { sequence: Sequence }) {
  const [open, setOpen] = useState(false);
  const archive = useArchiveSequence();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) archive.reset();
      }}
      trigger={
        <Button variant="secondary">
          <Archive aria-hidden="true" className="h-4 w-4" />
          Archive
        </Button>
      }
      title={`Archive ${sequence.name}?`}
      description={
        sequence.activeEnrollments > 0
          ? `${plural(sequence.activeEnrollments, 'person is', 'people are')} in it now: nothing more is sent to them. Triggers stop enrolling anyone. The history and statistics are kept.`
          : 'Triggers stop enrolling anyone. The history and statistics are kept.'
      }
      confirmLabel="Archive"
      pending={archive.isPending}
      onConfirm={() =>
        archive.mutate(sequence.id, {
          onSuccess: () => {
            toast.success(`${sequence.name} archived`);
            setOpen(false);
          },
        })
      }
    >
      <FormError>{archive.isError ? apiProblem(archive.error).message : null}</FormError>
    </ConfirmDialog>
  );
}

function RestoreButton({ sequence }: { sequence: Sequence }) {
  const update = useUpdateSequence();
  return (
    <Button
      variant="secondary"
      disabled={update.isPending}
      onClick={() =>
        update.mutate(
          { id: sequence.id, input: { status: 'active' } },
          { onSuccess: () => toast.success(`${sequence.name} is active again`), onError: (error) => toast.error(apiProblem(error).message) },
        )
      }
    >
      <RotateCcw aria-hidden="true" className="h-4 w-4" />
      {update.isPending ? 'Restoring…' : 'Make active again'}
    </Button>
  );
}

const tabId = (tab: SequenceTab) => `sequence-tab-${tab}`;

/** /admin/sequences/$id: the sequence, and its Steps, Enrollments and Statistics tabs (the tab and its filters in the URL). */
export function SequenceDetailPage({
  sequenceId,
  search,
  onChange,
}: {
  sequenceId: string;
  search: SequenceDetailSearch;
  onChange: (patch: Partial<SequenceDetailSearch>) => void;
}) {
  const query = useSequenceQuery(sequenceId);
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();

  if (query.isPending) return <Spinner label="Loading the sequence" />;
  if (query.isError) {
    return <SequenceLoadError error={query.error} heading="Sequence" onRetry={() => void query.refetch()} />;
  }
  const sequence = query.data;
  const tab = search.tab;
  const organizationName = isGlobal ? organizations.find((org) => org.id === sequence.organizationId)?.name : undefined;

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid min-w-0 max-w-3xl gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={sequence.status === 'active' ? 'green' : 'slate'}>{SEQUENCE_STATUS_LABELS[sequence.status]}</Badge>
            <span className="text-sm text-slate-700" data-testid="sequence-version">
              Version {sequence.currentVersion}
            </span>
            {organizationName && <span className="text-sm text-slate-700">· {organizationName}</span>}
          </div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{sequence.name}</h1>
          {sequence.description && <p className="text-sm text-slate-700">{sequence.description}</p>}
          <p className="text-sm text-slate-700">
            {sequence.trialTitle ? `Trial: ${sequence.trialTitle}` : 'Any trial'} · {plural(sequence.activeEnrollments, 'person', 'people')} in it now,{' '}
            {sequence.totalEnrollments.toLocaleString('en-US')} in all · updated {formatDateTime(sequence.updatedAt)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {sequence.status === 'active' ? (
            <>
              <EnrollCandidatesButton sequence={sequence} />
              <ArchiveButton sequence={sequence} />
            </>
          ) : (
            <RestoreButton sequence={sequence} />
          )}
        </div>
      </div>

      <Card>
        <CardHeader className="pb-2">
          <CardTitle as="h2" className="text-base">
            How people enter and leave
          </CardTitle>
        </CardHeader>
        <CardContent>
          <p className="mb-2 text-sm text-slate-800" data-testid="exit-on-reply">
            {sequence.exitOnReply ? 'A reply ends the sequence for that candidate.' : 'A reply does not end the sequence: its branch steps decide.'}
          </p>
          {sequence.triggers.length === 0 ? (
            <p className="text-sm text-slate-700">No trigger: candidates are enrolled by hand only.</p>
          ) : (
            <>
              <p className="text-sm text-slate-800" id="sequence-triggers-label">
                Enrolls automatically when:
              </p>
              <ul className="list-disc pl-5 text-sm text-slate-900" aria-labelledby="sequence-triggers-label">
                {sequence.triggers.map((trigger) => (
                  <li key={trigger}>{TRIGGER_LABELS[trigger]}</li>
                ))}
              </ul>
            </>
          )}
        </CardContent>
      </Card>

      <TabList tabs={SEQUENCE_TABS} selected={tab} labels={TAB_LABELS} label="Sequence" idOf={tabId} onSelect={(next) => onChange({ tab: next })} />
      <div role="tabpanel" id={`${tabId(tab)}-panel`} aria-labelledby={tabId(tab)}>
        {tab === 'steps' && <StepsTab sequence={sequence} />}
        {tab === 'enrollments' && (
          <EnrollmentsTab
            sequenceId={sequence.id}
            search={{ status: search.status, q: search.q, page: search.page ?? 1 }}
            onChange={(patch) => onChange(patch)}
            onOpen={(enrollment) => onChange({ enrollment })}
          />
        )}
        {tab === 'statistics' && (
          <Suspense fallback={<Spinner label="Loading statistics" />}>
            <StatisticsView sequence={sequence} version={search.version} onVersion={(version) => onChange({ version })} />
          </Suspense>
        )}
      </div>
      <EnrollmentTimelineDialog enrollmentId={search.enrollment} onClose={() => onChange({ enrollment: undefined })} />
    </div>
  );
}
