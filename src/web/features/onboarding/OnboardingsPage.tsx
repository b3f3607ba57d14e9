import { ActionsTh } from '../../components/ListState';
import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowRight, Building2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { OnboardingSummary } from '../../../contract/onboarding';
import { ErrorCard } from '../../components/ErrorCard';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import {
  Badge,
  buttonClass,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  EmptyState,
  Field,
  Input,
  PageHeader,
  SubmitButton,
  Table,
  Td,
  Th,
} from '../../components/ui';
import { formatDate, formatDateTime } from '../../lib/utils';
import { apiProblem } from '../../lib/form-errors';
import { useIsGlobal } from '../trials/hooks';
import { stepPosition } from './format';
import { useOnboardingsQuery, useStartOnboarding } from './queries';

/** Starts an onboarding: the organization is created at once, and the wizard opens on its next step. */
function StartOnboardingCard() {
  const navigate = useNavigate();
  const start = useStartOnboarding();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const problem = start.error ? apiProblem(start.error) : null;
  const fieldError = (field: string) => problem?.details.find((detail) => detail.path === field)?.message;
  const formError = problem && !fieldError('name') && !fieldError('slug') ? problem.message : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate(
      { name: name.trim(), slug: slug.trim() ? slug.trim().toLowerCase() : undefined },
      {
        onSuccess: async (onboarding) => {
          toast.success(`Created ${onboarding.organizationName}`);
          await navigate({ to: '/admin/onboard/$onboardingId', params: { onboardingId: onboarding.id }, search: { step: onboarding.currentStep } });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Onboard a new organization</CardTitle>
        <CardDescription>
          Creates the organization now; its owner, sites, first trial, agents and starter sequence follow step by step. You can stop at any step and continue
          later.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
          <Field label="Organization name" error={fieldError('name')}>
            <Input autoComplete="organization" value={name} onChange={(event) => setName(event.target.value)} />
          </Field>
          <Field label="Slug (optional)" error={fieldError('slug')} hint="Lowercase letters, digits and dashes; derived from the name when left empty.">
            <Input value={slug} onChange={(event) => setSlug(event.target.value)} />
          </Field>
          <SubmitButton pending={start.isPending} pendingLabel="Creating…" className="sm:mt-6" icon={<Building2 aria-hidden="true" className="h-4 w-4" />}>
            Start onboarding
          </SubmitButton>
          <FormError className="sm:col-span-3">{formError}</FormError>
        </form>
      </CardContent>
    </Card>
  );
}

function OnboardingTable({ caption, rows }: { caption: string; rows: OnboardingSummary[] }) {
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          <Th>Organization</Th>
          <Th>Where it is</Th>
          <Th>Started</Th>
          <Th>Last change</Th>
          <ActionsTh />
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <Td className="font-medium text-slate-900" id={`onboarding-${row.id}`}>
              {row.organizationName}
            </Td>
            <Td>{row.completedAt ? <Badge tone="green">Finished {formatDate(row.completedAt)}</Badge> : stepPosition(row.currentStep)}</Td>
            <Td>
              {formatDate(row.createdAt)}
              {row.startedByName && <span className="block text-xs text-slate-700">by {row.startedByName}</span>}
            </Td>
            <Td>{formatDateTime(row.updatedAt)}</Td>
            <Td className="text-right">
              <Link
                to="/admin/onboard/$onboardingId"
                params={{ onboardingId: row.id }}
                search={{ step: row.completedAt ? 'checklist' : row.currentStep }}
                className={buttonClass(row.completedAt ? 'secondary' : 'primary', 'sm')}
                aria-describedby={`onboarding-${row.id}`}
              >
                {row.completedAt ? 'Checklist' : 'Continue'}
                <ArrowRight aria-hidden="true" className="h-4 w-4" />
              </Link>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** /admin/onboard: start an onboarding, and the ones in progress (to continue) and finished. */
export function OnboardingsPage() {
  const isGlobal = useIsGlobal();
  const query = useOnboardingsQuery(isGlobal);
  const rows = query.data?.onboardings ?? [];
  const open = rows.filter((row) => !row.completedAt);
  const finished = rows.filter((row) => row.completedAt);

  if (!isGlobal) {
    return (
      <div>
        <PageHeader title="Onboard" />
        <EmptyState title="Onboarding is Cohortly's work">Switch to the Cohortly organization to onboard organizations.</EmptyState>
      </div>
    );
  }

  let list;
  if (query.isPending) list = <Spinner label="Loading onboardings" />;
  else if (query.isError) list = <ErrorCard title="Could not load onboardings" error={query.error} onRetry={() => void query.refetch()} />;
  else if (open.length === 0) list = <EmptyState title="No onboarding in progress">Start one above: it stays here until it is finished.</EmptyState>;
  else list = <OnboardingTable caption="Onboardings in progress" rows={open} />;

  return (
    <div className="grid gap-6">
      <PageHeader title="Onboard" description="Set up a new customer organization: its owner, sites, first trial, agents and a starter sequence." />
      <StartOnboardingCard />
      <section aria-labelledby="open-onboardings" className="grid gap-3">
        <h2 id="open-onboardings" className="text-lg font-semibold text-slate-900">
          In progress
        </h2>
        {list}
      </section>
      {finished.length > 0 && (
        <section aria-labelledby="finished-onboardings" className="grid gap-3">
          <h2 id="finished-onboardings" className="text-lg font-semibold text-slate-900">
            Finished
          </h2>
          <OnboardingTable caption="Finished onboardings" rows={finished} />
        </section>
      )}
    </div>
  );
}
