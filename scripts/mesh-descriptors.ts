/** MeSH 2024's descriptors as the shared data holds them (../shared/data/vocabulary/mesh), read by the vocabulary builds. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface Descriptor {
  ui: string;
  name: string;
  tree_numbers: string[];
  entry_terms: string[];
  pharm_actions: Array<{ ui: string; name: string }>;
}

/** Every descriptor of `mesh/mesh2024_descriptors.jsonl.gz` under `source`, one JSON line each. */
export function readMeshDescriptors(source: string): Descriptor[] {
  return gunzipSync(readFileSync(path.join(source, 'mesh/mesh2024_descriptors.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}
