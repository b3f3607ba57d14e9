import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddUserInput, Invitation, UpdateUserInput, User } from '../../../contract/users';
import { api } from '../../lib/api';
import { useActiveOrganization } from '../../lib/active-organization';
import { invalidateOrg, queryKeys } from '../../lib/query';

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
    queryFn: () => api.get<UserList>('/api/users/'),
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
    mutationFn: (input: AddUserInput) => api.post<AddUserResult>('/api/users/', input),
    onSuccess: invalidate,
  });
}

export function useUpdateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ userId, ...input }: UpdateUserInput & { userId: string }) => api.patch<User>(`/api/users/${encodeURIComponent(userId)}`, input),
    onSuccess: invalidate,
  });
}

export function useRemoveUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (userId: string) => api.delete(`/api/users/${encodeURIComponent(userId)}`),
    onSuccess: invalidate,
  });
}

export function useRevokeInvitation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (invitationId: string) => api.delete(`/api/users/invitations/${encodeURIComponent(invitationId)}`),
    onSuccess: invalidate,
  });
}
