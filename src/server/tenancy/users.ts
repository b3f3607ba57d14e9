import { createHash, randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gt, inArray, isNull, max } from 'drizzle-orm';
import type { MemberRole } from '../../contract/users';
import type { Executor } from '../db/scoped';
import { invitation, member, organization, session, user } from '../db/schema';

export type InvitationRow = typeof invitation.$inferSelect;

export interface Membership {
  organizationId: string;
  role: MemberRole;
  organization: typeof organization.$inferSelect;
}

export async function findMembership(executor: Executor, userId: string): Promise<Membership | undefined> {
  const [row] = await executor
    .select({ member, organization })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(member.userId, userId));
  return row && { organizationId: row.member.organizationId, role: row.member.role, organization: row.organization };
}

export async function insertMembership(executor: Executor, values: { organizationId: string; userId: string; role: MemberRole }) {
  await executor.insert(member).values(values);
}

const userColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  emailVerified: user.emailVerified,
  isAdmin: user.isAdmin,
  createdAt: user.createdAt,
  organizationId: member.organizationId,
  organizationName: organization.name,
  role: member.role,
};

export type UserRow = Awaited<ReturnType<typeof findUserWithMembership>>;

export async function findUserWithMembership(executor: Executor, userId: string) {
  const [row] = await executor
    .select(userColumns)
    .from(user)
    .leftJoin(member, eq(member.userId, user.id))
    .leftJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(user.id, userId));
  return row;
}

/** Members of the given organizations; the member join makes row-level security apply. */
export async function listMembers(executor: Executor, organizationIds: readonly string[]) {
  if (organizationIds.length === 0) return [];
  return executor
    .select(userColumns)
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(inArray(member.organizationId, [...organizationIds]))
    .orderBy(asc(organization.name), asc(user.name));
}

export async function findMember(executor: Executor, userId: string) {
  const [row] = await executor.select().from(member).where(eq(member.userId, userId));
  return row;
}

export async function updateMemberRole(executor: Executor, userId: string, role: MemberRole) {
  await executor.update(member).set({ role }).where(eq(member.userId, userId));
}

export async function updateUserName(executor: Executor, userId: string, name: string) {
  await executor.update(user).set({ name, updatedAt: new Date() }).where(eq(user.id, userId));
}

export async function deleteUserRow(executor: Executor, userId: string) {
  await executor.delete(user).where(eq(user.id, userId));
}

export async function countOwners(executor: Executor, organizationId: string): Promise<number> {
  const [row] = await executor
    .select({ owners: count() })
    .from(member)
    .where(and(eq(member.organizationId, organizationId), eq(member.role, 'owner')));
  return Number(row.owners);
}

export async function countMembers(executor: Executor, organizationId: string): Promise<number> {
  const [row] = await executor.select({ staff: count() }).from(member).where(eq(member.organizationId, organizationId));
  return Number(row.staff);
}

export async function findUserByEmail(executor: Executor, email: string) {
  const [row] = await executor.select({ id: user.id }).from(user).where(eq(user.email, email.toLowerCase()));
  return row;
}

/** Non-admin user ids of an organization's members (their accounts go with the organization). */
export async function memberUserIds(executor: Executor, organizationId: string): Promise<string[]> {
  const rows = await executor
    .select({ id: user.id })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, organizationId), eq(user.isAdmin, false)));
  return rows.map((row) => row.id);
}

// ---- invitations ----

export const INVITATION_TTL_DAYS = 7;
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates an invitation and returns it with the plain token (only its hash is stored). */
export async function insertInvitation(
  executor: Executor,
  values: { organizationId: string; email: string; role: MemberRole; invitedByUserId: string },
): Promise<{ row: InvitationRow; token: string }> {
  const token = randomBytes(24).toString('base64url');
  const [row] = await executor
    .insert(invitation)
    .values({
      ...values,
      email: values.email.toLowerCase(),
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000),
    })
    .returning();
  return { row, token };
}

/** A pending, unexpired invitation for this token, with its organization's name. */
export async function findOpenInvitation(executor: Executor, token: string) {
  const [row] = await executor
    .select({ invitation, organizationName: organization.name })
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .where(and(eq(invitation.tokenHash, hashToken(token)), isNull(invitation.acceptedAt), gt(invitation.expiresAt, new Date())));
  return row;
}

export async function markInvitationAccepted(executor: Executor, id: string) {
  await executor.update(invitation).set({ acceptedAt: new Date() }).where(eq(invitation.id, id));
}

export async function listInvitations(executor: Executor, organizationIds: readonly string[]) {
  if (organizationIds.length === 0) return [];
  return executor
    .select({ invitation, organizationName: organization.name })
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .where(and(inArray(invitation.organizationId, [...organizationIds]), isNull(invitation.acceptedAt)))
    .orderBy(desc(invitation.createdAt));
}

export async function findInvitationById(executor: Executor, id: string) {
  const [row] = await executor.select().from(invitation).where(eq(invitation.id, id));
  return row;
}

export async function deleteInvitation(executor: Executor, id: string) {
  await executor.delete(invitation).where(eq(invitation.id, id));
}

/**
 * The latest sign-in (newest session) of any member, per organization (the admin dashboard's customer
 * overview, decision 032). Sessions end and are removed, so this is the newest session still on record.
 */
export async function lastSignInByOrganization(executor: Executor, organizationIds: readonly string[]): Promise<Map<string, Date>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await executor
    .select({ organizationId: member.organizationId, at: max(session.createdAt) })
    .from(member)
    .innerJoin(session, eq(session.userId, member.userId))
    .where(inArray(member.organizationId, [...organizationIds]))
    .groupBy(member.organizationId);
  return new Map(rows.filter((row) => row.at).map((row) => [row.organizationId, new Date(row.at!)]));
}

/** Organization names by id (the organization registry; row security applies through the caller's scope). */
export async function organizationNames(executor: Executor, organizationIds: readonly string[]): Promise<Map<string, string>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await executor
    .select({ id: organization.id, name: organization.name })
    .from(organization)
    .where(inArray(organization.id, [...organizationIds]));
  return new Map(rows.map((row) => [row.id, row.name]));
}
