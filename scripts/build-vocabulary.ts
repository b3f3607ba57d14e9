/**
 * Builds src/server/features/trials/vocabulary/mesh.json from ClinicalTrials.gov records' MeSH terms
 * (derivedSection.conditionBrowseModule / interventionBrowseModule: meshes and ancestors).
 * MeSH is produced by the U.S. National Library of Medicine and is public domain (docs/decisions/022-criteria-vocabulary.md).
 *
 *   npx tsx scripts/build-vocabulary.ts [../shared/data/ctgov/studies.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type Mesh = { id: string; term: string };
type Browse = { meshes?: Mesh[]; ancestors?: Mesh[] };
type Study = { derivedSection?: { conditionBrowseModule?: Browse; interventionBrowseModule?: Browse } };

const source = path.resolve(process.argv[2] ?? '../shared/data/ctgov/studies.json');
const studies = JSON.parse(readFileSync(source, 'utf8')) as Study[];
const terms = new Map<string, { id: string; term: string; kind: 'condition' | 'medication' }>();
for (const study of studies) {
  for (const [module, kind] of [
    [study.derivedSection?.conditionBrowseModule, 'condition'],
    [study.derivedSection?.interventionBrowseModule, 'medication'],
  ] as const) {
    for (const mesh of [...(module?.meshes ?? []), ...(module?.ancestors ?? [])]) terms.set(mesh.id, { id: mesh.id, term: mesh.term, kind });
  }
}
const sorted = [...terms.values()].sort((a, b) => a.term.localeCompare(b.term));
const target = path.resolve('src/server/features/trials/vocabulary/mesh.json');
writeFileSync(target, `${JSON.stringify(sorted, null, 1)}\n`);
console.info(`${sorted.length} MeSH terms from ${studies.length} records -> ${target}`);
