import type { ReactNode } from 'react';
import { PageHeader } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { useIsGlobal } from '../trials/hooks';

/**
 * The candidate list's title and description. The /candidates route draws it while the list's code loads, so the
 * page's largest text (its description) does not wait for the table, filters and dialogs (decision 190).
 */
export function CandidatesHeading({ variant = 'workspace', actions }: { variant?: 'workspace' | 'admin'; actions?: ReactNode }) {
  const isGlobal = useIsGlobal();
  const { activeOrganization } = useActiveOrganization();
  const description =
    variant === 'admin'
      ? isGlobal
        ? 'Candidates across customer organizations. Narrow the list by organization.'
        : `Candidates of ${activeOrganization?.name ?? 'the active organization'}. Choose the Cohortly organization above to see every organization.`
      : isGlobal
        ? 'Candidates across organizations (by default all customer organizations).'
        : `Prospective participants of ${activeOrganization?.name ?? 'your organization'} and where they are in the funnel.`;
  return <PageHeader title={variant === 'admin' ? 'Candidates (all organizations)' : 'Candidates'} description={description} actions={actions} />;
}
