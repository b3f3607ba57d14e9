import { randomBytes } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random bits, laid out as the database's
 * `time_ordered_uuid()` (migration 0029) lays them out. For ids chosen in Node before their row is written (an
 * import's new people, decision 117): rows created together sit together in the primary key. Within one
 * millisecond the order is random, which no reader relies on (lists page by creation time, then id).
 */
export function timeOrderedUuid(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
