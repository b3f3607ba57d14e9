import type { CreateOrganizationInput, Organization, PublicOrganization, UpdateOrganizationInput } from '../../../contract/organizations';
import { INTERNAL_ORGANIZATION_SLUG } from '../../../contract/organizations';
import { can } from '../../auth/permissions';
import { canReach, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Executor } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { recordAudit } from '../../audit';
import { countMembers, deleteUserRow, memberUserIds } from '../../tenancy/users';
import {
  deleteOrganizationRow,
  findOrganizationById,
  findOrganizationByPublicId,
  findOrganizationBySlug,
  insertOrganization,
  listAllOrganizations,
  slugify,
  uniqueSlug,
  updateOrganizationRow,
  type OrganizationRow,
} from '../../tenancy/organizations';

// Organizations are the tenant registry itself, so these run on the system path with explicit checks:
// internal admins manage every organization; staff see and (owners/admins) rename their own.

export function toOrganization(row: OrganizationRow & { memberCount?: number }): Organization {
  return {
    id: row.id,
    slug: row.slug,
    publicId: row.publicId,
    name: row.name,
    ...(row.memberCount === undefined ? {} : { memberCount: row.memberCount }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The public lookup of the chat page: only id, name and public id, never more. */
export async function getPublicOrganization(db: Database, publicId: string): Promise<PublicOrganization> {
  const row = await findOrganizationByPublicId(db, publicId);
  if (!row) throw notFound('Organization not found');
  return { id: row.id, name: row.name, publicId: row.publicId };
}

/** Every organization for an internal admin (the switcher lists them all); one's own otherwise. */
export async function listOrganizations(db: Database, scope: RequestScope): Promise<Organization[]> {
  const all = await listAllOrganizations(db);
  const visible = can(scope, 'organization:list-all') ? all : all.filter((org) => org.id === scope.homeOrganizationId);
  return visible.map(toOrganization);
}

async function loadVisible(db: Database, scope: RequestScope, id: string): Promise<OrganizationRow> {
  const row = await findOrganizationById(db, id);
  // The scope rule, as everywhere: an internal admin reaches other organizations only from the Cohortly one.
  if (!row || !canReach(scope, id)) throw notFound('Organization not found');
  return row;
}

export async function getOrganization(db: Database, scope: RequestScope, id: string): Promise<Organization> {
  const row = await loadVisible(db, scope, id);
  return toOrganization({ ...row, memberCount: await countMembers(db, id) });
}

export async function createOrganization(db: Database, scope: RequestScope, input: CreateOrganizationInput): Promise<Organization> {
  return systemDb(db).transaction(async (tx) => toOrganization(await createOrganizationIn(tx, scope, input)));
}

/**
 * Creates an organization in the caller's transaction (the system path: the registry has no row security),
 * so other work (an onboarding) can commit with it or not at all. Internal admins in global scope only.
 */
export async function createOrganizationIn(tx: Executor, scope: RequestScope, input: CreateOrganizationInput): Promise<OrganizationRow> {
  if (!can(scope, 'organization:create'))
    throw forbidden(scope.isAdmin ? 'Switch to the Cohortly organization to create organizations' : 'Only Cohortly admins can create organizations');
  let slug: string;
  if (input.slug) {
    if (await findOrganizationBySlug(tx, input.slug)) throw conflict(`The slug "${input.slug}" is taken`);
    slug = input.slug;
  } else {
    slug = await uniqueSlug(tx, slugify(input.name));
  }
  const row = await insertOrganization(tx, { name: input.name, slug });
  await recordAudit(tx, {
    organizationId: row.id,
    actorUserId: scope.userId,
    action: 'organization.create',
    entityType: 'organization',
    entityId: row.id,
    changes: { name: row.name, slug },
  });
  return row;
}

export async function updateOrganization(db: Database, scope: RequestScope, id: string, input: UpdateOrganizationInput): Promise<Organization> {
  const current = await loadVisible(db, scope, id);
  if (!can(scope, 'organization:update', id)) throw forbidden('Your role cannot change this organization');
  if (input.slug !== undefined && input.slug !== current.slug) {
    if (current.slug === INTERNAL_ORGANIZATION_SLUG) throw badRequest('slug: The internal organization keeps its slug');
    if (!scope.isAdmin) throw forbidden('Only Cohortly admins can change a slug');
  }
  return systemDb(db).transaction(async (tx) => {
    if (input.slug && input.slug !== current.slug && (await findOrganizationBySlug(tx, input.slug))) {
      throw conflict(`The slug "${input.slug}" is taken`);
    }
    const row = await updateOrganizationRow(tx, id, { name: input.name, slug: input.slug });
    if (!row) throw notFound('Organization not found');
    const changes: Record<string, unknown> = {};
    if (input.name !== undefined && input.name !== current.name) changes.name = { from: current.name, to: input.name };
    if (input.slug !== undefined && input.slug !== current.slug) changes.slug = { from: current.slug, to: input.slug };
    await recordAudit(tx, { organizationId: id, actorUserId: scope.userId, action: 'organization.update', entityType: 'organization', entityId: id, changes });
    return toOrganization(row);
  });
}

/**
 * Deletes an organization with its memberships and its staff accounts (a staff account belongs to one
 * organization and is useless without it). Internal admins' accounts are never deleted this way.
 */
export async function deleteOrganization(db: Database, scope: RequestScope, id: string): Promise<void> {
  const current = await loadVisible(db, scope, id);
  if (!can(scope, 'organization:delete'))
    throw forbidden(scope.isAdmin ? 'Switch to the Cohortly organization to delete organizations' : 'Only Cohortly admins can delete organizations');
  if (current.slug === INTERNAL_ORGANIZATION_SLUG) throw new AppError(400, 'The internal Cohortly organization cannot be deleted');
  await systemDb(db).transaction(async (tx) => {
    const staff = await memberUserIds(tx, id);
    for (const userId of staff) await deleteUserRow(tx, userId);
    await deleteOrganizationRow(tx, id);
    await recordAudit(tx, {
      organizationId: id,
      actorUserId: scope.userId,
      action: 'organization.delete',
      entityType: 'organization',
      entityId: id,
      changes: { name: current.name, deletedAccounts: staff.length },
    });
  });
}
