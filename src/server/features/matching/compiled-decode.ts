/**
 * A slice's packed facts read into columns (compiled.ts, decisions 084 and 112), against the run's dictionary of
 * signatures. Signature row ids (`candidate_fact_signature`) below `DENSE_IDS` are looked up in a typed array kept per
 * run and rebuilt when the dictionary grows (decision 275); any other id in the dictionary's map, as before. The bytes
 * are read in place: a number from its bytes, a value through one DataView per underlying buffer (the driver packs
 * many people's bytes into one), not one view per person.
 */

/** A slice's facts as columns; a candidate's are `start` to `end`. */
export interface FactColumns {
  sig: Int32Array;
  value: Float64Array;
  hasValue: Uint8Array;
  day: Int32Array;
}

/** What decoding needs of a compiled trial (compiled.ts `CompiledTrial`): its signature row ids -> its own ids. */
type Dictionary = { signatureIds: Map<number, number> };

/** Bytes per packed fact: signature id (int4), value (float8), day (int4), has a value (one byte). */
export const PACKED_FACT_BYTES = 17;

/** Ids below this are read from the typed array: at most 8 MB, and only as large as the largest id the run met. */
const DENSE_IDS = 1 << 21;
const denseTables = new WeakMap<Dictionary, { size: number; table: Int32Array }>();

/** The run's signature ids as a typed array (-1: not in the dictionary, or past the table). */
function denseTable(trial: Dictionary): Int32Array {
  const ids = trial.signatureIds;
  const found = denseTables.get(trial);
  if (found?.size === ids.size) return found.table;
  let largest = -1;
  for (const id of ids.keys()) if (id >= 0 && id < DENSE_IDS && id > largest) largest = id;
  const table = new Int32Array(largest + 1).fill(-1);
  for (const [id, sig] of ids) if (id >= 0 && id < DENSE_IDS) table[id] = sig;
  denseTables.set(trial, { size: ids.size, table });
  return table;
}

/** A big-endian int4 at `at` (DataView's getInt32). */
const int32At = (bytes: Uint8Array, at: number) => (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];

/** The signature ids of a slice's packed facts that the run's dictionary does not hold yet, each once. */
export function unknownSignatureIds(trial: Dictionary, packed: ReadonlyArray<Uint8Array | null>): number[] {
  const unknown = new Set<number>();
  const table = denseTable(trial);
  for (const bytes of packed) {
    if (!bytes || bytes.byteLength % PACKED_FACT_BYTES !== 0) continue;
    for (let at = 0; at < bytes.byteLength; at += PACKED_FACT_BYTES) {
      const id = int32At(bytes, at);
      if (id >= 0 && id < table.length && table[id] >= 0) continue;
      if (!trial.signatureIds.has(id)) unknown.add(id);
    }
  }
  return [...unknown];
}

/**
 * Reads a slice's packed facts (one byte string per candidate, null for none; `candidate_fact_digest`, decision
 * 112) into columns. The signatures must have been added (`unknownSignatureIds`, `addSignatures`). Returns the
 * index of each candidate whose bytes do not read as whole facts of known signatures: the caller reads those
 * candidates' facts as rows instead.
 */
export function decodeFacts(trial: Dictionary, packed: ReadonlyArray<Uint8Array | null>): { columns: FactColumns; starts: Int32Array; irregular: number[] } {
  let total = 0;
  for (const bytes of packed) if (bytes) total += Math.floor(bytes.byteLength / PACKED_FACT_BYTES);
  const columns: FactColumns = { sig: new Int32Array(total), value: new Float64Array(total), hasValue: new Uint8Array(total), day: new Int32Array(total) };
  const starts = new Int32Array(packed.length + 1);
  const irregular: number[] = [];
  const ids = trial.signatureIds;
  const table = denseTable(trial);
  let view = null as DataView | null;
  let n = 0;
  for (let person = 0; person < packed.length; person++) {
    starts[person] = n;
    const bytes = packed[person];
    if (!bytes) continue;
    if (bytes.byteLength % PACKED_FACT_BYTES !== 0) {
      irregular.push(person);
      continue;
    }
    if (view?.buffer !== bytes.buffer) view = new DataView(bytes.buffer);
    const begin = n;
    for (let at = 0; at < bytes.byteLength; at += PACKED_FACT_BYTES) {
      const id = int32At(bytes, at);
      const dense = id >= 0 && id < table.length ? table[id] : -1;
      const sig = dense >= 0 ? dense : ids.get(id);
      if (sig === undefined) break;
      columns.sig[n] = sig;
      if (bytes[at + 16] === 1) {
        columns.value[n] = view.getFloat64(bytes.byteOffset + at + 4);
        columns.hasValue[n] = 1;
      }
      columns.day[n] = int32At(bytes, at + 12);
      n++;
    }
    if (n - begin !== bytes.byteLength / PACKED_FACT_BYTES) {
      // Zero what was written: the next person's facts start here.
      for (let i = begin; i < n; i++) {
        columns.value[i] = 0;
        columns.hasValue[i] = 0;
      }
      n = begin;
      irregular.push(person);
    }
  }
  starts[packed.length] = n;
  return { columns, starts, irregular };
}
