import { asc, eq, inArray } from 'drizzle-orm';
import type { OrganizationSite, OrganizationSiteInput } from '../../../contract/onboarding';
import type { TrialSite, TrialSiteInput } from '../../../contract/trials';
import type { Executor } from '../../db/scoped';
import { organizationSite } from '../../db/schema';
import { isUuid } from '../../../contract/ids';

/**
 * The organization's own sites (decision 027): rows of `organization_site`, in the order the organization
 * gave them. Run these inside runScoped: row-level security keeps them to the scope's organizations.
 */

type SiteRow = typeof organizationSite.$inferSelect;

export function toOrganizationSite(row: SiteRow): OrganizationSite {
  const site: OrganizationSite = { id: row.id, name: row.name, address: row.address, timeZone: row.timeZone };
  if (row.city) site.city = row.city;
  if (row.region) site.region = row.region;
  if (row.postalCode) site.postalCode = row.postalCode;
  if (row.country) site.country = row.country;
  return site;
}

export async function listOrganizationSites(executor: Executor, organizationId: string): Promise<OrganizationSite[]> {
  const rows = await executor
    .select()
    .from(organizationSite)
    .where(eq(organizationSite.organizationId, organizationId))
    .orderBy(asc(organizationSite.position), asc(organizationSite.createdAt));
  return rows.map(toOrganizationSite);
}

/**
 * Replaces the organization's sites with `inputs`, in that order: an input with the id of one of its sites
 * updates that site (its id stays), others are new; sites left out are deleted. Answers the saved list and
 * what changed (counts only).
 */
export async function replaceOrganizationSites(
  executor: Executor,
  organizationId: string,
  inputs: OrganizationSiteInput[],
): Promise<{ sites: OrganizationSite[]; added: number; updated: number; removed: number }> {
  const existing = await executor.select().from(organizationSite).where(eq(organizationSite.organizationId, organizationId));
  const byId = new Map(existing.map((row) => [row.id, row]));
  const kept = new Set<string>();
  let added = 0;
  let updated = 0;
  const now = new Date();
  for (const [position, input] of inputs.entries()) {
    const values = {
      name: input.name,
      address: input.address,
      city: input.city ?? null,
      region: input.region ?? null,
      postalCode: input.postalCode ?? null,
      country: input.country ?? null,
      timeZone: input.timeZone,
      position,
    };
    const old = input.id && isUuid(input.id) && !kept.has(input.id) ? byId.get(input.id) : undefined;
    if (old) {
      kept.add(old.id);
      await executor
        .update(organizationSite)
        .set({ ...values, updatedAt: now })
        .where(eq(organizationSite.id, old.id));
      updated++;
    } else {
      await executor.insert(organizationSite).values({ ...values, organizationId });
      added++;
    }
  }
  const removed = existing.filter((row) => !kept.has(row.id)).map((row) => row.id);
  if (removed.length) await executor.delete(organizationSite).where(inArray(organizationSite.id, removed));
  return { sites: await listOrganizationSites(executor, organizationId), added, updated, removed: removed.length };
}

const normalized = (value: string | null | undefined) =>
  (value ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** The same place: the same name, and the same city unless one of them gives none. */
export function sameSite(trialSite: Pick<TrialSite, 'name' | 'city'>, site: Pick<OrganizationSite, 'name' | 'city'>): boolean {
  if (normalized(trialSite.name) !== normalized(site.name)) return false;
  const a = normalized(trialSite.city);
  const b = normalized(site.city);
  return !a || !b || a === b;
}

/**
 * The trial's sites with the organization's own sites marked (decision 027): a trial site that is one of the
 * organization's sites becomes ours and takes the organization's time zone (and address, where the record
 * gave none); an organization site the record does not list is added to the trial as ours. Sites of the
 * record stay as they are otherwise, and a site is never unmarked. Null when nothing changes.
 */
export function markOwnSites(trialSites: readonly TrialSite[], organizationSites: readonly OrganizationSite[]): TrialSiteInput[] | null {
  const sites: TrialSiteInput[] = trialSites.map((site) => ({ ...site }));
  let changed = false;
  for (const own of organizationSites) {
    const index = sites.findIndex((site) => sameSite(site, own));
    if (index >= 0) {
      const site = sites[index];
      const next: TrialSiteInput = { ...site, isOwnSite: true, timeZone: own.timeZone, timeZoneSource: 'manual', address: site.address ?? own.address };
      if (site.isOwnSite !== true || site.timeZone !== own.timeZone || site.address !== next.address) {
        sites[index] = next;
        changed = true;
      }
      continue;
    }
    const added: TrialSiteInput = { name: own.name, address: own.address, timeZone: own.timeZone, timeZoneSource: 'manual', isOwnSite: true };
    if (own.city) added.city = own.city;
    if (own.region) added.region = own.region;
    if (own.postalCode) added.postalCode = own.postalCode;
    if (own.country) added.country = own.country;
    sites.push(added);
    changed = true;
  }
  return changed ? sites : null;
}
