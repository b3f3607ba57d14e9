import { randomUUID } from 'node:crypto';
import { isValidTimeZone } from '../../../contract/time-zones';
import { ownSitesFirst, siteLabel, type DraftSite, type TrialSite, type TrialSiteInput } from '../../../contract/trials';
import { badRequest } from '../../http/errors';
import { deriveTimeZone } from './site-zones';

/**
 * A trial's sites live in its `sites` JSON column, each with a stable id (docs/decisions/015-trial-sites.md).
 * Every reader goes through `readSites`, so a stored site without a zone still gets the one its location
 * tells (and never UTC).
 */

/** A stored site as the API shows it: id and isOwnSite always set, the zone derived when none is stored. */
export function readSite(stored: Partial<TrialSite> & { name: string }, index: number): TrialSite {
  const site: TrialSite = { ...stored, id: stored.id ?? `site-${index + 1}`, isOwnSite: stored.isOwnSite === true };
  if (!site.timeZone) {
    delete site.timeZoneSource;
    const derived = deriveTimeZone(site);
    if (derived) {
      site.timeZone = derived.timeZone;
      site.timeZoneSource = derived.source;
    }
  }
  return site;
}

/** The trial's sites, our sites first, the rest in the record's order. */
export function readSites(stored: readonly TrialSite[] | null | undefined): TrialSite[] {
  return ownSitesFirst((stored ?? []).map((site, index) => readSite(site, index)));
}

/** One site of the trial by id; undefined when the trial has no such site. */
export function findSite(stored: readonly TrialSite[], siteId: string): TrialSite | undefined {
  return readSites(stored).find((site) => site.id === siteId);
}

/**
 * The sites to store from a create, an update or an import: a given id keeps that site (bookings refer to it),
 * other sites get a new id. A zone given is checked; a site without one gets the zone its location tells.
 */
export function siteRows(inputs: ReadonlyArray<TrialSiteInput | DraftSite>, existing: readonly TrialSite[] = []): TrialSite[] {
  const old = new Map(existing.map((site) => [site.id, site]));
  const seen = new Set<string>();
  return inputs.map((input, index) => {
    const id = 'id' in input && input.id ? input.id : undefined;
    // An unknown or repeated id (a copied or stale list) makes a new site rather than taking another's identity.
    const before = id && !seen.has(id) ? old.get(id) : undefined;
    if (before) seen.add(before.id);
    const { id: _id, timeZone, timeZoneSource, isOwnSite, ...fields } = input as TrialSiteInput;
    const site: TrialSite = { ...fields, id: before?.id ?? randomUUID(), isOwnSite: isOwnSite ?? before?.isOwnSite ?? false };
    if (timeZone) {
      if (!isValidTimeZone(timeZone))
        throw badRequest(`sites.${index}.timeZone: Unknown time zone ${timeZone}`, [
          { path: `sites.${index}.timeZone`, message: `Unknown time zone ${timeZone}` },
        ]);
      site.timeZone = timeZone;
      site.timeZoneSource = before?.timeZone === timeZone ? (before.timeZoneSource ?? timeZoneSource ?? 'manual') : (timeZoneSource ?? 'manual');
    } else {
      const derived = deriveTimeZone(site);
      if (derived) {
        site.timeZone = derived.timeZone;
        site.timeZoneSource = derived.source;
      }
    }
    return site;
  });
}

/** Does the site match a search (name, city, state, postal code or country; every word must match)? */
export function siteMatches(site: TrialSite, query: string | undefined): boolean {
  const words = (query ?? '')
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [siteLabel(site), site.postalCode, site.address].filter(Boolean).join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/**
 * The trial's sites a schedule names, our sites first: an entry is a site id (agents saved before sites had
 * ids name a site; such a name counts only when exactly one site has it).
 */
export function scheduleSites(stored: TrialSite[], entries: readonly string[]): { found: TrialSite[]; unknown: string[]; ambiguous: string[] } {
  const sites = readSites(stored);
  const found: TrialSite[] = [];
  const unknown: string[] = [];
  const ambiguous: string[] = [];
  for (const entry of entries) {
    const byId = sites.find((site) => site.id === entry);
    const named = byId ? [byId] : sites.filter((site) => site.name.trim() === entry.trim());
    if (named.length === 1) {
      if (!found.includes(named[0])) found.push(named[0]);
    } else (named.length ? ambiguous : unknown).push(entry);
  }
  return { found: ownSitesFirst(found), unknown, ambiguous };
}
