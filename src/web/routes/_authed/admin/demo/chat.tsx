import { createFileRoute, Navigate } from '@tanstack/react-router';
import { ComingSoon } from '../../../../components/ComingSoon';
import { Spinner } from '../../../../components/Spinner';
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
    return (
      <ComingSoon
        title="Chat demo"
        description='No demo organization exists yet: create the demo data on the Demos page (or an organization whose name contains "demo"), and this page will open its public chat.'
      />
    );
  },
});
