import { Link } from '@tanstack/react-router';
import { FileUp } from 'lucide-react';
import { useMemo } from 'react';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { buttonClass, EmptyState, PageHeader } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { TrialTable } from './components';
import { DefaultSelectionNote } from './DefaultSelectionNote';
import { OrganizationFilter } from './OrganizationFilter';
import { useTrialsQuery } from './queries';
import { TrialFormDialog } from './dialogs';
import { useCreateTargets, useIsGlobal } from './hooks';
import { countOf } from '../../lib/counts';

// The hooks live in ./hooks (other pages use them without loading this page and its dialog).
export { useCreateTargets, useIsGlobal } from './hooks';

function ImportLink({ variant = 'secondary' }: { variant?: 'primary' | 'secondary' }) {
  return (
    <Link to="/trials/import" className={buttonClass(variant)}>
      <FileUp aria-hidden="true" className="h-4 w-4" />
      Import from ClinicalTrials.gov
    </Link>
  );
}

/**
 * The trial list. `/trials` shows the active organization's trials (several organizations for a global admin,
 * narrowed by `orgs`); `/admin/trials` (variant 'admin') always shows the organization column.
 */
export function TrialsPage({
  orgs,
  onOrgsChange,
  variant = 'workspace',
}: {
  orgs: string[] | undefined;
  onOrgsChange: (next: string[] | undefined) => void;
  variant?: 'workspace' | 'admin';
}) {
  const isGlobal = useIsGlobal();
  const { organizations, activeOrganization } = useActiveOrganization();
  const createTargets = useCreateTargets();
  const query = useTrialsQuery(isGlobal ? orgs : undefined);
  const organizationNames = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  const showOrganization = isGlobal || variant === 'admin';

  const actions = (
    <>
      <ImportLink />
      <TrialFormDialog organizations={createTargets} />
    </>
  );

  // An empty list offers the same actions in its empty state, not twice. The header offers them only once the
  // list is known: a dialog opened from the header while loading would vanish when an empty list arrives.
  const headerActions = query.isError || (query.data !== undefined && query.data.trials.length > 0);
  let body;
  if (query.isPending) body = <Spinner label="Loading trials" />;
  else if (query.isError) body = <ErrorCard title="Could not load trials" error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.trials.length === 0) {
    body = (
      <EmptyState title={orgs?.length ? 'No trials in the chosen organizations' : 'No trials yet'}>
        <p>Create a trial by hand, or import one from a ClinicalTrials.gov record and review its criteria.</p>
        {isGlobal && !orgs?.length && <DefaultSelectionNote things="trials" />}
        <div className="mt-4 flex flex-wrap justify-center gap-2">
          <TrialFormDialog organizations={createTargets} />
          <ImportLink />
        </div>
      </EmptyState>
    );
  } else {
    body = (
      <div className="grid gap-2">
        <p className="text-sm text-slate-700" aria-live="polite">
          {countOf(query.data.total, 'trial')}
        </p>
        <TrialTable trials={query.data.trials} showOrganization={showOrganization} organizationNames={organizationNames} />
      </div>
    );
  }

  const description =
    variant === 'admin'
      ? isGlobal
        ? 'Every trial across customer organizations. Narrow the list by organization.'
        : `Trials of ${activeOrganization?.name ?? 'the active organization'}. Choose the Cohortly organization above to see every organization.`
      : isGlobal
        ? 'Trials across organizations (by default all customer organizations).'
        : `Trials of ${activeOrganization?.name ?? 'your organization'}, with their enrollment and candidates.`;

  return (
    <div>
      <PageHeader
        title={variant === 'admin' ? 'Trials (all organizations)' : 'Trials'}
        description={description}
        actions={headerActions ? actions : undefined}
      />
      {isGlobal && (
        <div className="mb-4 flex flex-wrap items-center gap-2">
          <OrganizationFilter organizations={organizations.map((org) => ({ id: org.id, name: org.name }))} selected={orgs} onChange={onOrgsChange} />
        </div>
      )}
      {body}
    </div>
  );
}
