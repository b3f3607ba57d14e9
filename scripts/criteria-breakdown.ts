/**
 * Where the criteria reader stops (issue 10): `npx tsx scripts/criteria-breakdown.ts [--list REASON]`.
 *
 * `--part development` reads one half of the split (decision 128); `--part sentences` the development part of the
 * criterion sentences of tests/support/ner-criteria-corpus.ts (`--kind inclusion|exclusion` for one reading). Reads every record of ../shared/data/ctgov/studies.json (in place, never copied) and prints how its criteria
 * end: no rule, a rule that needs review, a rule that needs none; for rules in review, the concept reader's
 * flags and the words it left most often; for criteria with no rule, the commonest words. `--list REASON`
 * prints the criteria behind one flag (or `none` for criteria with no rule, `ok` for rules without review).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { draftFromStudy, readOptions } from '../src/server/features/trials/ctgov';
import { readTextRule } from '../src/server/features/trials/criteria';
import { studiesOfPart } from '../tests/support/criteria-corpus';
import { nerCriteriaStudies } from '../tests/support/ner-criteria-corpus';

const file = path.resolve(process.cwd(), '../shared/data/ctgov/studies.json');
if (!existsSync(file)) {
  console.error(`No records: ${file} is absent.`);
  process.exit(1);
}
const all = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
// `--part development|evaluation`: one half of the split (tuning looks at the development half only).
// `--part sentences`: the development part of the criterion sentences (tests/support/ner-criteria-corpus.ts), each read
// as an inclusion and as an exclusion; `--kind inclusion|exclusion` keeps one reading.
const part = process.argv.includes('--part') ? (process.argv[process.argv.indexOf('--part') + 1] as 'development' | 'evaluation' | 'sentences') : null;
const kinds = process.argv.includes('--kind')
  ? [process.argv[process.argv.indexOf('--kind') + 1] as 'inclusion' | 'exclusion']
  : (['inclusion', 'exclusion'] as const);
const studies = part === 'sentences' ? kinds.flatMap((kind) => nerCriteriaStudies('development', kind) ?? []) : part ? studiesOfPart(all, part) : all;
const list = process.argv.includes('--list') ? process.argv[process.argv.indexOf('--list') + 1] : null;

const count = new Map<string, number>();
const bump = (key: string) => count.set(key, (count.get(key) ?? 0) + 1);
const leftWords = new Map<string, number>();
const noneWords = new Map<string, number>();
const listed: string[] = [];
let total = 0;
for (const study of studies) {
  const draft = draftFromStudy(study);
  const options = readOptions(study as Parameters<typeof readOptions>[0]);
  for (const criterion of draft.criteria) {
    if (criterion.ruleSource === 'structured') continue;
    total++;
    const line = `${draft.nctId} ${criterion.kind[0]} ${criterion.text.replace(/\n/g, ' | ').slice(0, 200)}  ->  ${criterion.rule ? JSON.stringify({ ...criterion.rule, span: undefined, concepts: undefined }) : ''}`;
    if (!criterion.rule) {
      bump('no rule');
      for (const word of new Set(criterion.text.toLowerCase().match(/[a-z]{4,}/g) ?? [])) noneWords.set(word, (noneWords.get(word) ?? 0) + 1);
      if (list === 'none') listed.push(line);
      continue;
    }
    if (!criterion.needsReview) {
      bump(`no review: ${criterion.rule.type}`);
      if (list === 'ok') listed.push(`${line}  [unread: ${readTextRule(criterion.kind, criterion.text, options).unread?.join(' ') ?? ''}]`);
      continue;
    }
    bump(`review: ${criterion.rule.type}`);
    // A rule its reader passed is held by its list: one alternative of several, or a cohort (src/.../criteria/index.ts).
    const read = readTextRule(criterion.kind, criterion.text, options);
    const reasons = read.reasons?.length ? read.reasons : [read.needsReview ? '(a reader that gives no reason)' : 'list alternative'];
    for (const reason of reasons) {
      const [flag, words] = reason.split(': ');
      bump(`  flag ${flag}`);
      for (const word of words?.split(' ') ?? []) leftWords.set(word, (leftWords.get(word) ?? 0) + 1);
      if (list === flag) listed.push(`${line}  [${reasons.join('; ')}]`);
    }
    if (reasons.length === 1) bump(`  only flag ${reasons[0].split(': ')[0]}`);
  }
}
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([word, times]) => `${word} ${times}`)
    .join(', ');
console.info(`${studies.length} records, ${total} criteria read from the text`);
for (const [key, times] of [...count].sort((a, b) => a[0].localeCompare(b[0]))) console.info(`${key}: ${times}`);
console.info(`\nwords left beside a concept rule in review (top 40): ${top(leftWords, 40)}`);
console.info(`\nwords of criteria with no rule (top 40): ${top(noneWords, 40)}`);
if (list) console.info(`\n${listed.join('\n')}`);
