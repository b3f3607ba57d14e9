import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractNoteFacts } from '../../src/server/features/matching/note-extractor';
import { isA } from '../../src/server/features/trials/vocabulary';
import { recognize } from '../../src/server/features/trials/vocabulary/recognizer';

/**
 * The note reader against 20 hand-labelled TREC 2021 vignettes (tests/fixtures/matching/note-labels.json: chosen by
 * seed 30126, labelled before the reader was tuned on them; texts in the fixture, public domain, so this runs without
 * ../shared). Recall: the share of the conditions, medications and labs a clinician would list that the reader finds.
 * Wrong: the share of the conditions and medications it asserts (present or history) that are neither listed, nor
 * also true, or that the text says are absent. The evaluation half is never tuned on; both halves are printed.
 */

interface Vignette {
  id: string;
  part: 'development' | 'evaluation';
  text: string;
  conditions: string[][];
  medications: string[][];
  labs: string[];
  alsoTrue: string[];
  absent: string[];
}
const { vignettes } = JSON.parse(readFileSync(path.resolve(process.cwd(), 'tests/fixtures/matching/note-labels.json'), 'utf8')) as {
  vignettes: Vignette[];
};

/** The concepts a label's words name (each accepted spelling read whole by the recognizer). */
function conceptsOf(terms: string[]): Set<string> {
  const ids = new Set<string>();
  for (const term of terms)
    for (const spelling of [term, term.toUpperCase()]) {
      const found = recognize(spelling);
      if (found.length === 1 && found[0].start === 0 && found[0].end === spelling.length) ids.add(found[0].conceptId);
    }
  return ids;
}

/** A fact meets a label when it is the labelled concept or under it, or carries one of its names. */
const meets = (fact: { conceptId: string | null; name: string }, terms: string[], ids: Set<string>) =>
  terms.some((term) => term.toLowerCase() === fact.name.toLowerCase()) || (fact.conceptId !== null && [...ids].some((id) => isA(fact.conceptId!, id)));

interface Score {
  listed: number;
  found: number;
  asserted: number;
  wrong: number;
  misses: string[];
  wrongs: string[];
}

function score(part: Vignette['part']): Score {
  const total: Score = { listed: 0, found: 0, asserted: 0, wrong: 0, misses: [], wrongs: [] };
  for (const vignette of vignettes.filter((item) => item.part === part)) {
    const facts = extractNoteFacts(vignette.text);
    const asserted = facts.filter(
      (fact) => (fact.kind === 'condition' || fact.kind === 'medication') && (fact.status === 'present' || fact.status === 'history'),
    );
    for (const [kind, items] of [
      ['condition', vignette.conditions],
      ['medication', vignette.medications],
    ] as const) {
      for (const terms of items) {
        total.listed++;
        const ids = conceptsOf(terms);
        if (asserted.some((fact) => fact.kind === kind && meets(fact, terms, ids))) total.found++;
        else total.misses.push(`${vignette.id} ${terms[0]}`);
      }
    }
    for (const lab of vignette.labs) {
      total.listed++;
      if (facts.some((fact) => fact.kind === 'lab' && fact.name.toLowerCase() === lab.toLowerCase())) total.found++;
      else total.misses.push(`${vignette.id} lab ${lab}`);
    }
    const fine = [...vignette.conditions, ...vignette.medications, ...vignette.alsoTrue.map((term) => [term])].map((terms) => ({
      terms,
      ids: conceptsOf(terms),
    }));
    const denied = vignette.absent.map((term) => ({ terms: [term], ids: conceptsOf([term]) }));
    for (const fact of asserted) {
      total.asserted++;
      const isDenied = denied.some(({ terms, ids }) => meets(fact, terms, ids));
      if (isDenied || !fine.some(({ terms, ids }) => meets(fact, terms, ids))) {
        total.wrong++;
        total.wrongs.push(`${vignette.id} ${fact.name}`);
      }
    }
  }
  return total;
}

const share = (part: number, whole: number) => (whole ? part / whole : 0);

describe('the note reader on 20 hand-labelled TREC 2021 vignettes', () => {
  const development = score('development');
  const evaluation = score('evaluation');

  it('prints recall and the share of wrong findings on both halves', () => {
    for (const [name, figures] of [
      ['development', development],
      ['evaluation (untuned)', evaluation],
    ] as const) {
      console.info(
        `${name}: found ${figures.found} of ${figures.listed} listed (${(100 * share(figures.found, figures.listed)).toFixed(1)}%); ` +
          `wrong ${figures.wrong} of ${figures.asserted} asserted (${(100 * share(figures.wrong, figures.asserted)).toFixed(1)}%)\n` +
          `  missed: ${figures.misses.join('; ')}\n  wrong: ${figures.wrongs.join('; ')}`,
      );
    }
    expect(vignettes).toHaveLength(20);
  });

  // Floors a little under the figures measured when the labels were first scored (docs/decisions/127): a ratchet.
  it('holds its floors', () => {
    expect(share(development.found, development.listed)).toBeGreaterThanOrEqual(DEVELOPMENT_RECALL);
    expect(share(evaluation.found, evaluation.listed)).toBeGreaterThanOrEqual(EVALUATION_RECALL);
    expect(share(development.wrong, development.asserted)).toBeLessThanOrEqual(DEVELOPMENT_WRONG);
    expect(share(evaluation.wrong, evaluation.asserted)).toBeLessThanOrEqual(EVALUATION_WRONG);
  });
});

// First scored 2026-11-29 before any tuning: development 66/97 found (68.0%), 4/66 wrong (6.1%); evaluation 51/85
// (60.0%), 4/60 wrong (6.7%). After one change made on the development half's errors (a substance with a measured
// value is a lab, not a medicine): development 1/63 wrong (1.6%), evaluation 2/58 (3.4%), recall unchanged.
const DEVELOPMENT_RECALL = 0.66;
const EVALUATION_RECALL = 0.58;
const DEVELOPMENT_WRONG = 0.03;
const EVALUATION_WRONG = 0.05;
