/**
 * Compiles the analytes a lab criterion or a note may name with a measured value (decision 304) from MeSH 2024
 * (../shared/data/vocabulary) into src/server/features/trials/vocabulary/analytes-2024.json.gz.
 *
 *   npm run build:analytes [-- ../shared/data/vocabulary]
 *
 * Kept by MeSH tree, never by what a corpus mentions: ions and metals (D01.248.497, D01.552, chlorides D01.210.450,
 * phosphates D01.695.625; not every element: "carbon" and "oxygen" name no blood level), hormones (D06.472), enzymes (D08.811), blood sugar (D09.947.875.359.448), lipids (D10), blood
 * proteins and peptide hormones (D12.776, D12.644.548), antigens and biomarkers (D23.050, D23.101), vitamin D and B12
 * (D04.210.500.812, D03.633.400.909), urea, uric acid and lactate (D02.065.950, D03.132.960, D02.241.511.459) and the
 * blood tests MeSH names (E01.370.225: hematocrit, CD4 count, blood urea nitrogen). A class heading near its tree's root
 * ("Proteins", "Hormones") names no one analyte and is left out. A descriptor with a pharmacological action is marked:
 * a medicine is named as an analyte only with a level word, and a body substance that is also given as a medicine
 * ("estradiol", "calcium") never with a percentage (a cream's strength).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { wordOrders } from '../src/server/features/trials/vocabulary/normalize';
import { plainName } from '../src/server/features/trials/vocabulary/plain-name';
import { readMeshDescriptors } from './mesh-descriptors';

const source = path.resolve(process.argv[2] ?? '../shared/data/vocabulary');
const target = path.resolve('src/server/features/trials/vocabulary/analytes-2024.json.gz');

const descriptors = readMeshDescriptors(source);

const ANALYTE_TREES =
  /^(?:D01\.248\.497|D01\.552|D01\.210\.450|D01\.695\.625|D06\.472|D08\.811|D09\.947\.875\.359\.448|D10|D12\.776|D12\.644\.548|D23\.050|D23\.101|D04\.210\.500\.812|D03\.633\.400\.909|D02\.065\.950|D03\.132\.960|D02\.241\.511\.459|E01\.370\.225)\./;
/** Substances of the body itself: named with a concentration they are a level even when MeSH files them as medicines too. */
const BODY_TREES = /^(?:D01\.248\.497|D01\.552|D01\.210\.450|D01\.695\.625|D06\.472|D08\.811|D09\.947|D10|D12\.776|D12\.644\.548|D23)\./;
/** Two levels below a tree's root or deeper: "Proteins" (D12.776) and "Hormones" (D06.472) are classes, not analytes. */
const deepEnough = (tree: string) => tree.split('.').length >= 3;

const analytes: Array<[string, string, string, ...string[]]> = [];
for (const descriptor of descriptors) {
  const trees = descriptor.tree_numbers.filter((tree) => ANALYTE_TREES.test(tree) && deepEnough(tree));
  if (!trees.length) continue;
  const medicine = descriptor.pharm_actions.length > 0;
  const body = descriptor.tree_numbers.some((tree) => BODY_TREES.test(tree));
  const flags = medicine ? (body ? 'p' : 'm') : '';
  const terms = new Set<string>();
  for (const term of [descriptor.name, ...descriptor.entry_terms])
    for (const order of wordOrders(term)) if (order.length >= 3 && !order.includes(',') && /[a-z]{3}/i.test(order)) terms.add(order);
  analytes.push([descriptor.ui, plainName(descriptor.name), flags, ...terms]);
}
analytes.sort((a, b) => a[0].localeCompare(b[0]));
const artifact = { meta: { mesh: 'MeSH 2024 (U.S. National Library of Medicine), restructured: analyte descriptors selected by tree' }, analytes };
writeFileSync(target, gzipSync(JSON.stringify(artifact), { level: 9 }));
console.log(`${analytes.length} analytes, ${analytes.reduce((sum, item) => sum + item.length - 3, 0)} terms -> ${path.relative(process.cwd(), target)}`);
