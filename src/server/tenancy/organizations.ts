import { randomBytes } from 'node:crypto';
import { asc, count, eq, like, or } from 'drizzle-orm';
import type { Executor } from '../db/scoped';
import { member, organization } from '../db/schema';
import { isUuid } from '../../contract/ids';

export type OrganizationRow = typeof organization.$inferSelect;

const PUBLIC_ID_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 16 characters from a 57-letter alphabet: ~93 bits, unguessable, readable in a link. */
export function newPublicId(): string {
  const bytes = randomBytes(16);
  return Array.from(bytes, (byte) => PUBLIC_ID_ALPHABET[byte % PUBLIC_ID_ALPHABET.length]).join('');
}

export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  return base || 'organization';
}

/** The slug itself when free, otherwise the first free `slug-2`, `slug-3`, ... */
export async function uniqueSlug(executor: Executor, wanted: string): Promise<string> {
  const taken = await executor
    .select({ slug: organization.slug })
    .from(organization)
    .where(or(eq(organization.slug, wanted), like(organization.slug, `${wanted}-%`)));
  const used = new Set(taken.map((row) => row.slug));
  if (!used.has(wanted)) return wanted;
  for (let suffix = 2; ; suffix++) if (!used.has(`${wanted}-${suffix}`)) return `${wanted}-${suffix}`;
}

export async function insertOrganization(executor: Executor, values: { name: string; slug: string }): Promise<OrganizationRow> {
  const [row] = await executor.insert(organization).values({ name: values.name, slug: values.slug, publicId: newPublicId() }).returning();
  return row;
}

export async function findOrganizationById(executor: Executor, id: string): Promise<OrganizationRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await executor.select().from(organization).where(eq(organization.id, id));
  return row;
}

export async function findOrganizationBySlug(executor: Executor, slug: string): Promise<OrganizationRow | undefined> {
  const [row] = await executor.select().from(organization).where(eq(organization.slug, slug));
  return row;
}

/** The demo organization's slug (`npm run seed`, decision 033). */
export const DEMO_ORGANIZATION_SLUG = 'demo-research-site';

/** The demo organization's id, if it has been seeded: a cross-organization lookup (pass `systemDb(deps.db)`). */
export async function findDemoOrganizationId(executor: Executor): Promise<string | undefined> {
  const [row] = await executor.select({ id: organization.id }).from(organization).where(eq(organization.slug, DEMO_ORGANIZATION_SLUG));
  return row?.id;
}

export async function findOrganizationByPublicId(executor: Executor, publicId: string): Promise<OrganizationRow | undefined> {
  const [row] = await executor.select().from(organization).where(eq(organization.publicId, publicId));
  return row;
}

/**
 * The first organization of the list an internal admin sees (same order as `listAllOrganizations`): their default
 * active organization when nothing valid is stored (docs/product-spec.md §9, decision 181).
 */
export async function findFirstOrganization(executor: Executor): Promise<Pick<OrganizationRow, 'id' | 'slug' | 'publicId' | 'name'> | undefined> {
  const [row] = await executor
    .select({ id: organization.id, slug: organization.slug, publicId: organization.publicId, name: organization.name })
    .from(organization)
    .orderBy(asc(organization.createdAt), asc(organization.name))
    .limit(1);
  return row;
}

export async function listAllOrganizations(executor: Executor): Promise<Array<OrganizationRow & { memberCount: number }>> {
  const rows = await executor
    .select({ organization, memberCount: count(member.id) })
    .from(organization)
    .leftJoin(member, eq(member.organizationId, organization.id))
    .groupBy(organization.id)
    .orderBy(asc(organization.createdAt), asc(organization.name));
  return rows.map((row) => ({ ...row.organization, memberCount: Number(row.memberCount) }));
}

export async function updateOrganizationRow(
  executor: Executor,
  id: string,
  values: Partial<Pick<OrganizationRow, 'name' | 'slug'>>,
): Promise<OrganizationRow | undefined> {
  const [row] = await executor
    .update(organization)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(organization.id, id))
    .returning();
  return row;
}

export async function deleteOrganizationRow(executor: Executor, id: string): Promise<void> {
  await executor.delete(organization).where(eq(organization.id, id));
}
