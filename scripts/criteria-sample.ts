/**
 * Draws a fresh hand-check sample of text-read rules (docs/criteria-reading.md):
 * `npx tsx scripts/criteria-sample.ts [--seed N] [--size 50] [--all] [--part evaluation --no-review]`.
 *
 * Reads ../shared/data/ctgov/studies.json in place. The pool is every rule read from the eligibility text whose
 * criterion is not in a table of docs/criteria-reading.md already (matched by record and the first 100 characters
 * of the text), so a sample is never one the reader was fixed against. With `--all` the pool is every text-read
 * rule: once the unchecked pool is spent, a sample of all rules is the honest estimate of the current reader
 * (earlier tables judged earlier readers). The pool is shuffled with a seeded
 * mulberry32 Fisher-Yates; the first N are printed in corpus order as the rows of a table to fill in by hand.
 *
 * What one pass changed (decision 107): `--dump FILE` writes every text-read criterion's rule to FILE (run it on the
 * reader before the pass, e.g. a `git archive` of main); `--changed FILE` then draws only from the rules this reader
 * gives differently from FILE's (a new rule, another rule, or the same rule with another review flag).
 */
import { seededRandom } from '../src/server/seeded-random';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { draftFromStudy } from '../src/server/features/trials/ctgov';
import { ruleInWords } from '../src/web/features/trials/format';

const file = path.resolve(process.cwd(), '../shared/data/ctgov/studies.json');
if (!existsSync(file)) {
  console.error(`No records: ${file} is absent.`);
  process.exit(1);
}
const argument = (name: string, fallback: number) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const seed = argument('--seed', 40040);
const fromAll = process.argv.includes('--all');
// Issue 30: `--part evaluation --no-review` draws from the no-review rules of one half of the split only
// (tests/fixtures/ctgov/evaluation-split.json); every such rule is in the pool, checked before or not.
const partName = process.argv.includes('--part') ? process.argv[process.argv.indexOf('--part') + 1] : null;
const noReviewOnly = process.argv.includes('--no-review');
const split = JSON.parse(readFileSync(path.resolve(process.cwd(), 'tests/fixtures/ctgov/evaluation-split.json'), 'utf8')) as Record<string, string[]>;
const partIds = partName ? new Set(split[partName] ?? []) : null;
const size = argument('--size', 50);

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const key = (record: string, text: string) => `${record} ${squash(text).replace(/[|\\]/g, '').slice(0, 100).toLowerCase()}`;
const checked = new Set(
  readFileSync(path.resolve(process.cwd(), 'docs/criteria-reading.md'), 'utf8')
    .split('\n')
    .map((line) => /^\| \d+ \| (NCT\d+) \| \w+ \| (.*?)(?:…)? \|/.exec(line))
    .filter((match): match is RegExpExecArray => Boolean(match))
    .map((match) => key(match[1], match[2].replace(/ \/ /g, ' '))),
);

const option = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : null);
const dumpTo = option('--dump');
const changedFrom = option('--changed');
/** A rule as compared across readers: its content without the spans (which move when nothing else does). */
const ruleKey = (rule: unknown, needsReview: boolean) => JSON.stringify([rule, needsReview], (name, value) => (name === 'span' ? undefined : value));
const before = changedFrom
  ? new Map(
      readFileSync(changedFrom, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const item = JSON.parse(line) as { key: string; rule: string };
          return [item.key, item.rule] as const;
        }),
    )
  : null;
const dumped: string[] = [];

const pool: Array<{ record: string; kind: string; text: string; rule: string; order: number }> = [];
for (const study of JSON.parse(readFileSync(file, 'utf8')) as unknown[]) {
  const draft = draftFromStudy(study);
  draft.criteria.forEach((criterion, index) => {
    if (criterion.ruleSource === 'structured') return;
    // The record, the criterion's place and text: one criterion, whichever reader read it.
    const identity = `${draft.nctId} ${index} ${squash(criterion.text)}`;
    const read = ruleKey(criterion.rule, criterion.needsReview);
    if (dumpTo) dumped.push(JSON.stringify({ key: identity, rule: read }));
    if (before && before.get(identity) === read) return;
    if (criterion.ruleSource !== 'text' || !criterion.rule) return;
    if (partIds && !partIds.has(draft.nctId ?? '')) return;
    if (noReviewOnly && criterion.needsReview) return;
    const prefix = key(draft.nctId ?? '', criterion.text);
    if (!fromAll && !partIds && !before && [...checked].some((seen) => seen.startsWith(prefix.slice(0, 60)) || prefix.startsWith(seen.slice(0, 60)))) return;
    pool.push({
      record: draft.nctId ?? '',
      kind: criterion.kind,
      text: squash(criterion.text),
      rule: `${ruleInWords(criterion.rule)}${criterion.needsReview ? ' (needs review)' : ''}`,
      order: pool.length,
    });
  });
}
if (dumpTo) {
  writeFileSync(dumpTo, `${dumped.join('\n')}\n`);
  console.info(`wrote ${dumped.length} criteria to ${dumpTo}`);
  process.exit(0);
}

const random = seededRandom(seed);
const shuffled = [...pool];
for (let index = shuffled.length - 1; index > 0; index--) {
  const other = Math.floor(random() * (index + 1));
  [shuffled[index], shuffled[other]] = [shuffled[other], shuffled[index]];
}
const sample = shuffled.slice(0, size).sort((a, b) => a.order - b.order);
console.info(
  partIds
    ? `seed ${seed}; pool ${pool.length}: text-read rules of the ${partName} half${noReviewOnly ? ' needing no review' : ''}\n`
    : before
      ? `seed ${seed}; pool ${pool.length}: text-read rules that differ from ${changedFrom}\n`
      : fromAll
        ? `seed ${seed}; pool ${pool.length}: all text-read rules\n`
        : `seed ${seed}; pool ${pool.length} rules not checked before (${checked.size} criteria in earlier tables)\n`,
);
const cell = (text: string) => text.replace(/\|/g, '/');
sample.forEach((item, index) => {
  const text = process.argv.includes('--full') || item.text.length <= 150 ? item.text : `${item.text.slice(0, 150)}…`;
  console.info(`| ${index + 1} | ${item.record} | ${item.kind} | ${cell(text)} | ${cell(item.rule)} |  |  |`);
});
