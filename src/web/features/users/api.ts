import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddUserInput, Invitation, UpdateUserInput, User } from '../../../contract/users';
import { api } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { invalidateOrg, orgQueryOptions, queryKeys } from '../../lib/query';
import * as endpoints from '../../lib/api-operations.gen';

export interface UserList {
  users: User[];
  invitations: Invitation[];
}
export interface AddUserResult {
  user?: User;
  invitation?: Invitation;
  invitationUrl?: string;
}

export function useUsersQuery() {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery({
    queryKey: queryKeys.users(activeOrganizationId),
    queryFn: () => api.call(endpoints.listUsers),
    enabled: Boolean(activeOrganizationId),
  });
}

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => Promise.all([invalidateOrg(queryClient, undefined, 'users'), queryClient.invalidateQueries({ queryKey: ['organizations'] })]);
}

export function useAddUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (input: AddUserInput) => api.call(endpoints.inviteUser, { body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ userId, ...input }: UpdateUserInput & { userId: string }) => api.call(endpoints.updateUser, { params: { userId }, body: input }),
    onSuccess: invalidate,
  });
}

export function useRemoveUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (userId: string) => api.call(endpoints.removeUser, { params: { userId } }),
    onSuccess: invalidate,
  });
}

export function useRevokeInvitation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (invitationId: string) => api.call(endpoints.revokeInvitation, { params: { invitationId } }),
    onSuccess: invalidate,
  });
}

/** Mail kept instead of sent (no mail server configured): internal admins with the Cohortly organization active. */
export function useMailOutboxQuery(enabled: boolean) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: ['org', activeOrganizationId, 'mail-outbox'] as const,
      queryFn: ({ signal }) => api.call(endpoints.listMailOutbox, { query: { limit: 100 }, signal }),
      enabled: enabled && Boolean(activeOrganizationId),
    }),
  );
}

/** One kept mail in full, fetched only when an admin opens it. */
export function useMailMessageQuery(id: string, enabled: boolean) {
  const { activeOrganizationId } = useActiveOrganization();
  return useQuery(
    orgQueryOptions({
      queryKey: ['org', activeOrganizationId, 'mail-outbox', id] as const,
      queryFn: ({ signal }) => api.call(endpoints.getMailOutboxMessage, { params: { id }, signal }),
      enabled,
    }),
  );
}
