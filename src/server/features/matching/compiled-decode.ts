/**
 * A slice's packed facts read into columns (compiled.ts, decisions 084 and 112), against the run's dictionary of
 * signatures. Signature row ids (`candidate_fact_signature`) below `DENSE_IDS` are looked up in a typed array kept per
 * run and rebuilt when the dictionary grows (decision 275); any other id in the dictionary's map, as before.
 * Decision 299: a slice's bytes arrive as one base64 text for the whole slice (queries-run-reads.ts `candidateSlice`),
 * decoded by Node into one byte array (`PackedSlice`), so a candidate costs no byte object of their own; one pass
 * decodes the facts and names the signatures the run has not met.
 */

/** A slice's facts as columns; a candidate's are `start` to `end`. */
export interface FactColumns {
  sig: Int32Array;
  value: Float64Array;
  hasValue: Uint8Array;
  day: Int32Array;
}

/** A slice's packed facts in one byte array: candidate i's are `bytes[starts[i]]` to `bytes[starts[i + 1]]` (none: equal). */
export interface PackedSlice {
  bytes: Uint8Array;
  starts: Int32Array;
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

/** A big-endian float8 at `at`, through an 8-byte scratch in this machine's order (no view per buffer). */
const scratch = new Uint8Array(8);
const scratchFloat = new Float64Array(scratch.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
function float64At(bytes: Uint8Array, at: number): number {
  if (LITTLE_ENDIAN) for (let k = 0; k < 8; k++) scratch[k] = bytes[at + 7 - k];
  else for (let k = 0; k < 8; k++) scratch[k] = bytes[at + k];
  return scratchFloat[0];
}

/** Byte strings per candidate (null for none) as one `PackedSlice`. */
function packedFromParts(parts: ReadonlyArray<Uint8Array | null>): PackedSlice {
  let total = 0;
  for (const part of parts) if (part) total += part.byteLength;
  const bytes = new Uint8Array(total);
  const starts = new Int32Array(parts.length + 1);
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    starts[i] = at;
    const part = parts[i];
    if (part) {
      bytes.set(part, at);
      at += part.byteLength;
    }
  }
  starts[parts.length] = at;
  return { bytes, starts };
}

const asSlice = (packed: PackedSlice | ReadonlyArray<Uint8Array | null>): PackedSlice => ('starts' in packed ? packed : packedFromParts(packed));

/**
 * Reads a slice's packed facts (`candidate_fact_digest`, decision 112) into columns, in one pass. Returns the index
 * of each candidate whose bytes do not read as whole facts of known signatures, and the signature ids the run's
 * dictionary does not hold (each once): the caller adds those (`addSignatures`) and decodes again, and reads the
 * candidates still irregular as rows instead.
 */
export function decodeFacts(
  trial: Dictionary,
  packed: PackedSlice | ReadonlyArray<Uint8Array | null>,
): { columns: FactColumns; starts: Int32Array; irregular: number[]; unknown: number[] } {
  const { bytes, starts: byteStarts } = asSlice(packed);
  const people = byteStarts.length - 1;
  const total = Math.floor(bytes.byteLength / PACKED_FACT_BYTES);
  const columns: FactColumns = { sig: new Int32Array(total), value: new Float64Array(total), hasValue: new Uint8Array(total), day: new Int32Array(total) };
  const { sig: sigs, value, hasValue, day } = columns;
  const starts = new Int32Array(people + 1);
  const irregular: number[] = [];
  const unknown = new Set<number>();
  const ids = trial.signatureIds;
  const table = denseTable(trial);
  let n = 0;
  for (let person = 0; person < people; person++) {
    starts[person] = n;
    const from = byteStarts[person];
    const to = byteStarts[person + 1];
    if ((to - from) % PACKED_FACT_BYTES !== 0) {
      irregular.push(person);
      continue;
    }
    const begin = n;
    let whole = true;
    for (let at = from; at < to; at += PACKED_FACT_BYTES) {
      const id = int32At(bytes, at);
      const dense = id >= 0 && id < table.length ? table[id] : -1;
      const sig = dense >= 0 ? dense : ids.get(id);
      if (sig === undefined) {
        // Read on to name every unknown signature of the slice in this one pass.
        unknown.add(id);
        whole = false;
        continue;
      }
      if (!whole) continue;
      sigs[n] = sig;
      if (bytes[at + 16] === 1) {
        value[n] = float64At(bytes, at + 4);
        hasValue[n] = 1;
      }
      day[n] = int32At(bytes, at + 12);
      n++;
    }
    if (!whole) {
      // Zero what was written: the next person's facts start here.
      for (let i = begin; i < n; i++) {
        value[i] = 0;
        hasValue[i] = 0;
      }
      n = begin;
      irregular.push(person);
    }
  }
  starts[people] = n;
  return { columns, starts, irregular, unknown: [...unknown] };
}
