/**
 * Organization sets known to hold more than the list's count limit (decision 093).
 *
 * The unfiltered list answers "10,000+" for a large organization, and counting the 10,001 rows that prove it
 * was most of the list's time on PGlite under load. Adding candidates keeps that answer true; only removing them
 * can make it false, so an entry lives until this process removes a candidate of one of its organizations, and
 * at most `TTL_MS` (removals by another process, or one that commits while a list counts) plus the one recount
 * that then decides (see knownToExceedLimit).
 */
const TTL_MS = 10_000;
/** Entries at most; the oldest go first. */
const MAX_ENTRIES = 10_000;

/** When the set was counted past the limit, and when a list started counting it again after TTL_MS. */
const knownLarge = new Map<string, { at: number; recountingSince?: number }>();

const keyOf = (organizationIds: readonly string[]) => [...organizationIds].sort().join(',');

/**
 * True when these organizations together were counted past the limit within the last TTL_MS, with no removal since.
 * Past TTL_MS one caller gets false and counts again; the others keep the answer until that count is remembered or
 * forgotten, at most another TTL_MS: under load every list arriving while the recount ran counted too, a burst of
 * counts every TTL_MS that made the list's p99 (decision 111).
 */
export function knownToExceedLimit(organizationIds: readonly string[], now = Date.now()): boolean {
  const key = keyOf(organizationIds);
  const entry = knownLarge.get(key);
  if (entry === undefined) return false;
  if (now - entry.at < TTL_MS) return true;
  if (entry.recountingSince !== undefined && now - entry.recountingSince < TTL_MS) return true;
  entry.recountingSince = now;
  return false;
}

export function rememberExceedsLimit(organizationIds: readonly string[], now = Date.now()) {
  const key = keyOf(organizationIds);
  knownLarge.delete(key);
  if (knownLarge.size >= MAX_ENTRIES) knownLarge.delete(knownLarge.keys().next().value!);
  knownLarge.set(key, { at: now });
}

/** These organizations were counted within the limit: the next lists count too. */
export function forgetExceedsLimit(organizationIds: readonly string[]) {
  knownLarge.delete(keyOf(organizationIds));
}

/** Candidates of these organizations are being removed: their counts must be made again. */
export function forgetLargeCounts(organizationIds: Iterable<string>) {
  const removed = new Set(organizationIds);
  if (removed.size === 0 || knownLarge.size === 0) return;
  for (const key of [...knownLarge.keys()]) {
    if (key.split(',').some((id) => removed.has(id))) knownLarge.delete(key);
  }
}
