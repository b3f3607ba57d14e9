import type { AddUserInput, Invitation, MemberRole, UpdateUserInput, User } from '../../../contract/users';
import type { Auth } from '../../auth/auth';
import { can, canGrantOwner } from '../../auth/permissions';
import { passwordProblem } from '../../auth/password-policy';
import { canReach, runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/client';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors';
import type { MailPort } from '../../integrations/mail/mail';
import { recordAudit } from '../../audit';
import { findOrganizationById } from '../../tenancy/organizations';
import {
  countOwners,
  deleteInvitation,
  deleteUserRow,
  findInvitationById,
  findMember,
  findOpenInvitation,
  findUserByEmail,
  findUserWithMembership,
  insertInvitation,
  insertMembership,
  listInvitations,
  listMembers,
  updateMemberRole,
  updateUserName,
  type InvitationRow,
  type UserRow,
} from '../../tenancy/users';

function toUser(row: NonNullable<UserRow>): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerified,
    isAdmin: row.isAdmin,
    organizationId: row.organizationId ?? null,
    organizationName: row.organizationName ?? null,
    role: row.role ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

function toInvitation(row: InvitationRow, organizationName: string): Invitation {
  return {
    id: row.id,
    organizationId: row.organizationId,
    organizationName,
    email: row.email,
    role: row.role,
    status: row.acceptedAt ? 'accepted' : row.expiresAt < new Date() ? 'expired' : 'pending',
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function getMe(db: Database, scope: RequestScope): Promise<User> {
  const row = await findUserWithMembership(db, scope.userId);
  if (!row) throw notFound('User not found');
  return toUser(row);
}

/** A role as the invitation says it ("as a coordinator"), never its code. */
const ROLE_WITH_ARTICLE: Record<MemberRole, string> = { owner: 'an owner', admin: 'an admin', coordinator: 'a coordinator' };

/** Users (and pending invitations) of the organizations in scope, narrowed by orgId/organizationIds/orgs. */
export async function listUsers(db: Database, scope: RequestScope, requested: Array<string | string[] | undefined>) {
  const organizationIds = selectOrganizations(scope, ...requested);
  return runScoped(db, scope, async (tx) => {
    const [members, invitations] = await Promise.all([listMembers(tx, organizationIds), listInvitations(tx, organizationIds)]);
    return {
      users: members.map(toUser),
      invitations: invitations.map((row) => toInvitation(row.invitation, row.organizationName)),
    };
  });
}

/** A member within the scope, or 404: another organization's user does not exist for this request. */
async function loadMemberInScope(db: Database, scope: RequestScope, userId: string) {
  const membership = await findMember(db, userId);
  if (!membership || !canReach(scope, membership.organizationId)) throw notFound('User not found');
  return membership;
}

export async function updateUser(db: Database, scope: RequestScope, userId: string, input: UpdateUserInput): Promise<User> {
  const membership = await loadMemberInScope(db, scope, userId);
  const self = userId === scope.userId;
  if (!self && !can(scope, 'user:manage', membership.organizationId)) throw forbidden('Your role cannot manage users');
  if (input.role !== undefined && input.role !== membership.role) {
    if (!can(scope, 'user:manage', membership.organizationId)) throw forbidden('Your role cannot change roles');
    if ((input.role === 'owner' || membership.role === 'owner') && !canGrantOwner(scope)) {
      throw forbidden('Only an owner can give or take the owner role');
    }
  }
  return runScoped(db, scope, async (tx) => {
    if (input.role !== undefined && membership.role === 'owner' && input.role !== 'owner' && (await countOwners(tx, membership.organizationId)) === 1) {
      throw badRequest('role: An organization needs at least one owner');
    }
    const changes: Record<string, unknown> = {};
    if (input.name !== undefined) {
      await updateUserName(tx, userId, input.name);
      changes.name = 'changed';
    }
    if (input.role !== undefined && input.role !== membership.role) {
      await updateMemberRole(tx, userId, input.role);
      changes.role = { from: membership.role, to: input.role };
    }
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      actorUserId: scope.userId,
      action: 'user.update',
      entityType: 'user',
      entityId: userId,
      changes,
    });
    const row = await findUserWithMembership(tx, userId);
    return toUser(row!);
  });
}

/** Removes a user from their organization; since staff belong to one organization, the account goes too. */
export async function removeUser(db: Database, scope: RequestScope, userId: string): Promise<void> {
  const membership = await loadMemberInScope(db, scope, userId);
  if (!can(scope, 'user:manage', membership.organizationId)) throw forbidden('Your role cannot remove users');
  if (userId === scope.userId) throw badRequest('You cannot remove yourself: delete your account from account settings');
  if (membership.role === 'owner' && !canGrantOwner(scope)) throw forbidden('Only an owner can remove an owner');
  await runScoped(db, scope, async (tx) => {
    if (membership.role === 'owner' && (await countOwners(tx, membership.organizationId)) === 1) {
      throw badRequest("This is the organization's only owner: make someone else owner first");
    }
    await recordAudit(tx, {
      organizationId: membership.organizationId,
      actorUserId: scope.userId,
      action: 'user.remove',
      entityType: 'user',
      entityId: userId,
      changes: { role: membership.role },
    });
  });
  // The account row is not a tenant row: delete it on the system path once the audit is written.
  await deleteUserRow(db, userId);
}

export interface AddUserDeps {
  db: Database;
  auth: Auth;
  mail: MailPort;
  config: AppConfig;
}

/**
 * Invites someone by email (a link to sign up into the organization), or adds them at once with a first
 * password that they change in their account settings.
 */
export async function addUser({ db, auth, mail, config }: AddUserDeps, scope: RequestScope, input: AddUserInput) {
  if (!canReach(scope, input.organizationId)) throw notFound('Organization not found');
  const organization = await findOrganizationById(db, input.organizationId);
  if (!organization) throw notFound('Organization not found');
  if (!can(scope, 'user:manage', input.organizationId)) throw forbidden('Your role cannot add users');
  if (input.role === 'owner' && !canGrantOwner(scope)) throw forbidden('Only an owner can give the owner role');
  if (await findUserByEmail(db, input.email)) throw conflict('A user with this email already exists');

  if (input.mode === 'invite') {
    const { row, token } = await runScoped(db, scope, async (tx) => {
      const created = await insertInvitation(tx, { organizationId: organization.id, email: input.email, role: input.role, invitedByUserId: scope.userId });
      await recordAudit(tx, {
        organizationId: organization.id,
        actorUserId: scope.userId,
        action: 'invitation.create',
        entityType: 'invitation',
        entityId: created.row.id,
        changes: { role: input.role },
      });
      return created;
    });
    const invitationUrl = `${config.publicBaseUrl}/sign-up?invitation=${encodeURIComponent(token)}`;
    await mail.send({
      to: input.email,
      subject: `You are invited to ${organization.name} on Cohortly`,
      text: `Hello,\n\nYou have been invited to join ${organization.name} on Cohortly as ${ROLE_WITH_ARTICLE[input.role]}.\nCreate your account here (the link is valid for 7 days):\n${invitationUrl}\n`,
    });
    return { invitation: toInvitation(row, organization.name), invitationUrl };
  }

  // Direct add: the same account records better-auth makes at sign-up, with the password hashed by it. The staff
  // member who adds a colleague vouches for the address, as for an invitation: sign-in needs it verified (decision 121).
  const problem = passwordProblem(input.password!, { email: input.email, name: input.name });
  if (problem) throw badRequest(problem, [{ path: 'password', message: problem }]);
  const context = await auth.$context;
  const created = await context.internalAdapter.createUser({ email: input.email, name: input.name!, emailVerified: true }, { method: 'admin' });
  await context.internalAdapter.linkAccount({
    userId: created.id,
    providerId: 'credential',
    accountId: created.id,
    password: await context.password.hash(input.password!),
  });
  await runScoped(db, scope, async (tx) => {
    await insertMembership(tx, { organizationId: organization.id, userId: created.id, role: input.role });
    await recordAudit(tx, {
      organizationId: organization.id,
      actorUserId: scope.userId,
      action: 'user.add',
      entityType: 'user',
      entityId: created.id,
      changes: { role: input.role },
    });
  });
  return { user: toUser((await findUserWithMembership(db, created.id))!) };
}

export async function revokeInvitation(db: Database, scope: RequestScope, invitationId: string): Promise<void> {
  await runScoped(db, scope, async (tx) => {
    // Row-level security hides other organizations' invitations, so they answer 404 here.
    const row = /^[0-9a-f-]{36}$/i.test(invitationId) ? await findInvitationById(tx, invitationId) : undefined;
    if (!row) throw notFound('Invitation not found');
    if (!can(scope, 'user:manage', row.organizationId)) throw forbidden('Your role cannot manage invitations');
    await deleteInvitation(tx, invitationId);
    await recordAudit(tx, {
      organizationId: row.organizationId,
      actorUserId: scope.userId,
      action: 'invitation.revoke',
      entityType: 'invitation',
      entityId: invitationId,
    });
  });
}

/** What the sign-up page shows for an invitation link; no sign-in needed, the token is the secret. */
export async function previewInvitation(db: Database, token: string) {
  const open = await findOpenInvitation(db, token);
  if (!open) throw notFound('This invitation link is invalid, used or expired');
  return { organizationName: open.organizationName, email: open.invitation.email, role: open.invitation.role };
}
