import { ActionsTh } from '../../components/ListState';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { MEMBER_ROLES, type Invitation, type MemberRole, type User } from '../../../contract/users';
import { MEMBER_ROLE_LABELS } from '../../../contract/words';
import { ConfirmDialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, EmptyState, PageHeader, Table, Td, Th } from '../../components/ui';
import { useActiveOrganization, usePermissions } from '../../lib/active-organization';
import { useAuth } from '../../lib/auth';
import { formatDate } from '../../lib/utils';
import { AddUserDialog } from './AddUserDialog';
import { useRemoveUser, useRevokeInvitation, useUpdateUser, useUsersQuery } from './api';

function RoleCell({ user, editable, canGrantOwner }: { user: User; editable: boolean; canGrantOwner: boolean }) {
  const update = useUpdateUser();
  if (!editable || !user.role) return <span>{user.role ? MEMBER_ROLE_LABELS[user.role] : user.isAdmin ? 'Cohortly admin' : '—'}</span>;
  return (
    <select
      aria-label="Role"
      aria-describedby={`user-name-${user.id}`}
      value={user.role}
      disabled={update.isPending || (user.role === 'owner' && !canGrantOwner)}
      onChange={(event) => {
        const role = event.target.value as MemberRole;
        update.mutate({ userId: user.id, role }, { onSuccess: () => toast.success(`${user.name} is now ${MEMBER_ROLE_LABELS[role].toLowerCase()}`) });
      }}
      className="h-8 rounded-md border border-slate-400 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
    >
      {MEMBER_ROLES.map((role) => (
        <option key={role} value={role} disabled={role === 'owner' && !canGrantOwner}>
          {MEMBER_ROLE_LABELS[role]}
        </option>
      ))}
    </select>
  );
}

function RemoveUserButton({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const remove = useRemoveUser();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="secondary" size="sm" aria-describedby={`user-name-${user.id}`}>
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          Remove
        </Button>
      }
      title={`Remove ${user.name}?`}
      description={`${user.email} loses access to ${user.organizationName ?? 'the organization'} and their account is deleted.`}
      confirmLabel="Remove user"
      pending={remove.isPending}
      onConfirm={() =>
        remove.mutate(user.id, {
          onSuccess: () => {
            toast.success(`Removed ${user.name}`);
            setOpen(false);
          },
        })
      }
    />
  );
}

function RevokeInvitationButton({ invitation }: { invitation: Invitation }) {
  const revoke = useRevokeInvitation();
  return (
    <Button
      variant="secondary"
      size="sm"
      aria-describedby={`invitation-email-${invitation.id}`}
      disabled={revoke.isPending}
      onClick={() => revoke.mutate(invitation.id, { onSuccess: () => toast.success(`Revoked the invitation for ${invitation.email}`) })}
    >
      Revoke
    </Button>
  );
}

export function UsersPage() {
  const { session } = useAuth();
  const { activeOrganization } = useActiveOrganization();
  const isGlobal = Boolean(session?.isAdmin) && activeOrganization?.slug.toLowerCase() === 'cohortly';
  const { canManage, canGrantOwner } = usePermissions();
  const query = useUsersQuery();

  let body;
  if (query.isPending) body = <Spinner />;
  else if (query.error) body = <ErrorCard title="Could not load users" error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const { users, invitations } = query.data;
    const pending = invitations.filter((invitation) => invitation.status === 'pending');
    body = (
      <div className="grid gap-8">
        {users.length === 0 ? (
          <EmptyState title="No users yet">Add the first member with "Add user".</EmptyState>
        ) : (
          <Table caption="Users">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Email</Th>
                <Th>Organization</Th>
                <Th>Role</Th>
                <Th>Verified</Th>
                {canManage && <ActionsTh />}
              </tr>
            </thead>
            <tbody>
              {users.map((user) => {
                const self = user.id === session?.user.id;
                return (
                  <tr key={user.id}>
                    <Td className="font-medium text-slate-900" id={`user-name-${user.id}`}>
                      {user.name}
                      {self && <span className="ml-2 text-xs font-normal text-slate-700">(you)</span>}
                    </Td>
                    <Td>{user.email}</Td>
                    <Td>{user.organizationName ?? '—'}</Td>
                    <Td>
                      <RoleCell user={user} editable={canManage && !self} canGrantOwner={canGrantOwner} />
                    </Td>
                    <Td>{user.emailVerified ? <Badge tone="green">Verified</Badge> : <Badge>Not verified</Badge>}</Td>
                    {canManage && <Td className="text-right">{!self && <RemoveUserButton user={user} />}</Td>}
                  </tr>
                );
              })}
            </tbody>
          </Table>
        )}
        <section aria-labelledby="invitations-heading" className="grid gap-3">
          <h2 id="invitations-heading" className="text-lg font-semibold text-slate-900">
            Pending invitations
          </h2>
          {pending.length === 0 ? (
            <EmptyState title="No pending invitations" />
          ) : (
            <Table labelledBy="invitations-heading">
              <thead>
                <tr>
                  <Th>Email</Th>
                  <Th>Organization</Th>
                  <Th>Role</Th>
                  <Th>Expires</Th>
                  {canManage && <ActionsTh />}
                </tr>
              </thead>
              <tbody>
                {pending.map((invitation) => (
                  <tr key={invitation.id}>
                    <Td id={`invitation-email-${invitation.id}`}>{invitation.email}</Td>
                    <Td>{invitation.organizationName}</Td>
                    <Td>{MEMBER_ROLE_LABELS[invitation.role]}</Td>
                    <Td>{formatDate(invitation.expiresAt)}</Td>
                    {canManage && (
                      <Td className="text-right">
                        <RevokeInvitationButton invitation={invitation} />
                      </Td>
                    )}
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </section>
      </div>
    );
  }

  return (
    <div>
      <PageHeader
        title="Users"
        description={
          isGlobal
            ? 'Staff of every customer organization (choose an organization above to see only its staff).'
            : `Staff of ${activeOrganization?.name ?? 'your organization'}.`
        }
        actions={canManage ? <AddUserDialog /> : undefined}
      />
      {!canManage && (
        <p role="note" className="mb-4 rounded-md border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700">
          You can see your organization's staff. Only owners and admins can add, change or remove users.
        </p>
      )}
      {body}
    </div>
  );
}
