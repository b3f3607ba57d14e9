import { and, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { OnboardingStep } from '../../../contract/onboarding';
import type { Executor } from '../../db/scoped';
import { invitation, member, onboarding, organization, sequence, user, type OnboardingMade } from '../../db/schema';

export type OnboardingRow = typeof onboarding.$inferSelect;

export interface ListedOnboardingRow {
  onboarding: OnboardingRow;
  organizationName: string;
  organizationSlug: string;
  organizationPublicId: string;
  startedByName: string | null;
}

const listed = {
  onboarding,
  organizationName: organization.name,
  organizationSlug: organization.slug,
  organizationPublicId: organization.publicId,
  startedByName: user.name,
};

function selectListed(executor: Executor, where: SQL | undefined) {
  return executor
    .select(listed)
    .from(onboarding)
    .innerJoin(organization, eq(organization.id, onboarding.organizationId))
    .leftJoin(user, eq(user.id, onboarding.createdByUserId))
    .where(where);
}

/** Onboardings, the most recently worked on first; `status` open (not completed), completed or all. */
export async function listOnboardingRows(executor: Executor, status: 'open' | 'completed' | 'all'): Promise<ListedOnboardingRow[]> {
  const where = status === 'open' ? isNull(onboarding.completedAt) : status === 'completed' ? isNotNull(onboarding.completedAt) : undefined;
  return selectListed(executor, where).orderBy(desc(onboarding.updatedAt), desc(onboarding.id));
}

export async function findOnboardingRow(executor: Executor, id: string): Promise<ListedOnboardingRow | undefined> {
  const [row] = await selectListed(executor, eq(onboarding.id, id));
  return row;
}

export async function insertOnboardingRow(
  executor: Executor,
  values: { organizationId: string; createdByUserId: string; currentStep: OnboardingStep },
): Promise<OnboardingRow> {
  const [row] = await executor.insert(onboarding).values(values).returning();
  return row;
}

export async function updateOnboardingRow(
  executor: Executor,
  id: string,
  values: Partial<Pick<OnboardingRow, 'currentStep' | 'made' | 'completedAt'>>,
): Promise<void> {
  await executor
    .update(onboarding)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(onboarding.id, id));
}

/** Records what a step made, merged into what the onboarding already remembers (read under a row lock). */
export async function rememberMade(executor: Executor, id: string, made: OnboardingMade): Promise<void> {
  const [row] = await executor.select({ made: onboarding.made }).from(onboarding).where(eq(onboarding.id, id)).for('update');
  if (!row) return;
  await updateOnboardingRow(executor, id, { made: { ...row.made, ...made } });
}

/** The organization's owners (accounts), oldest first. */
export async function ownersOf(executor: Executor, organizationId: string) {
  return executor
    .select({ userId: user.id, email: user.email })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, organizationId), eq(member.role, 'owner')))
    .orderBy(member.createdAt);
}

/** Invitations to be an owner of the organization, newest first. */
export async function ownerInvitationsOf(executor: Executor, organizationId: string) {
  return executor
    .select()
    .from(invitation)
    .where(and(eq(invitation.organizationId, organizationId), eq(invitation.role, 'owner')))
    .orderBy(desc(invitation.createdAt));
}

/** Name and status of a sequence (an archived one still exists, for its history). */
export async function findSequenceSummary(
  executor: Executor,
  id: string,
): Promise<{ id: string; organizationId: string; name: string; status: 'active' | 'archived' } | undefined> {
  const [row] = await executor
    .select({ id: sequence.id, organizationId: sequence.organizationId, name: sequence.name, status: sequence.status })
    .from(sequence)
    .where(eq(sequence.id, id));
  return row;
}
