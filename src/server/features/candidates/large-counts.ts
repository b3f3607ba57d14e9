/**
 * Organization sets known to hold more than the list's count limit (decision 093).
 *
 * The unfiltered list answers "10,000+" for a large organization, and counting the 10,001 rows that prove it
 * was most of the list's time on PGlite under load. Adding candidates keeps that answer true; only removing them
 * can make it false, so an entry lives until this process removes a candidate of one of its organizations, and
 * at most `TTL_MS` (removals by another process, or one that commits while a list counts).
 */
const TTL_MS = 10_000;
/** Entries at most; the oldest go first. */
const MAX_ENTRIES = 10_000;

const knownLarge = new Map<string, number>();

const keyOf = (organizationIds: readonly string[]) => [...organizationIds].sort().join(',');

/** True when these organizations together were counted past the limit within the last TTL_MS, with no removal since. */
export function knownToExceedLimit(organizationIds: readonly string[], now = Date.now()): boolean {
  const key = keyOf(organizationIds);
  const at = knownLarge.get(key);
  if (at === undefined) return false;
  if (now - at < TTL_MS) return true;
  knownLarge.delete(key);
  return false;
}

export function rememberExceedsLimit(organizationIds: readonly string[], now = Date.now()) {
  if (knownLarge.size >= MAX_ENTRIES) knownLarge.delete(knownLarge.keys().next().value!);
  knownLarge.set(keyOf(organizationIds), now);
}

/** Candidates of these organizations are being removed: their counts must be made again. */
export function forgetLargeCounts(organizationIds: Iterable<string>) {
  const removed = new Set(organizationIds);
  if (removed.size === 0 || knownLarge.size === 0) return;
  for (const key of [...knownLarge.keys()]) {
    if (key.split(',').some((id) => removed.has(id))) knownLarge.delete(key);
  }
}
