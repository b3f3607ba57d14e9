import { createFileRoute, Link, Navigate } from '@tanstack/react-router';
import { Spinner } from '../../../../components/Spinner';
import { buttonClass, EmptyState, PageHeader } from '../../../../components/ui';
import { useActiveOrganization } from '../../../../lib/active-organization';

/** The public chat page of a demo organization (one whose name contains "demo"). */
export const Route = createFileRoute('/_authed/admin/demo/chat')({
  staticData: { crumb: 'Chat' },
  component: function DemoChatRoute() {
    const { organizations, isLoading } = useActiveOrganization();
    if (isLoading) return <Spinner label="Finding the demo organization" />;
    // The seeded demo organization first (npm run seed, or Reset on /admin/demo), else any whose name says demo.
    const demo = organizations.find((org) => org.slug === 'demo-research-site') ?? organizations.find((org) => org.name.toLowerCase().includes('demo'));
    if (demo) return <Navigate to="/chat/$organizationId" params={{ organizationId: demo.publicId }} replace />;
    // Issue 32: not "Coming soon": the demo works once its data exists, so say how to get there.
    return (
      <div className="grid gap-6">
        <PageHeader title="Chat demo" description="The demo organization’s public chat page: a visitor prescreens themselves for a trial." />
        <EmptyState title="Create demo data first">
          <p>There is no demo organization yet. Create the demo data on the Demos page, and this page opens its public chat.</p>
          <Link to="/admin/demo" className={buttonClass('secondary', 'md', 'mt-3')}>
            Create demo data
          </Link>
        </EmptyState>
      </div>
    );
  },
});
