import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractNoteFacts } from '../../src/server/features/matching/note-extractor';
import { vocabulary } from '../../src/server/features/trials/vocabulary';

/**
 * The note extractor on real vignettes (SIGIR 2016 cohort, TREC 2021 Clinical Trials), against hand labels
 * kept in tests/fixtures/matching/vignette-labels.json (ids and expected values only). Figures are printed;
 * docs/note-extraction.md records them. Skips when ../shared is absent.
 */

const SHARED = path.resolve(process.cwd(), '../shared/data/matching');
const FILES = ['sigir/queries.jsonl', 'trec_2021/queries.jsonl'];

interface Label {
  id: string;
  age: number;
  sex: 'female' | 'male';
  /** null: a healthy volunteer, nothing to find (not scored). */
  mainCondition: string | null;
  accept: string[];
  namedInText: boolean;
  /**
   * 1: labelled before any code; 2: labelled before the vocabulary was extended, not read while tuning; 3 and 4:
   * fresh sets labelled on the third pass (decision 088), each before the extractor was run on it.
   */
  batch: number;
  /** Why a label reads as it does where it is debatable or was corrected. */
  labelNote?: string;
}

const labels = (JSON.parse(readFileSync(path.resolve(process.cwd(), 'tests/fixtures/matching/vignette-labels.json'), 'utf8')) as { vignettes: Label[] })
  .vignettes;

function loadTexts(): Map<string, string> {
  const texts = new Map<string, string>();
  for (const file of FILES) {
    for (const line of readFileSync(path.join(SHARED, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const { _id, text } = JSON.parse(line) as { _id: string; text: string };
      texts.set(_id, text);
    }
  }
  return texts;
}

/** An accepted term's concept: the vocabulary's, when the whole term is one mention of it. */
function acceptedConcepts(terms: string[]): { ids: Set<string>; names: Set<string> } {
  const ids = new Set<string>();
  const names = new Set(terms.map((term) => term.toLowerCase()));
  for (const term of terms) {
    // Labels are in lower case; abbreviations ("copd") are in the vocabulary in capitals.
    for (const spelling of [term, term.toUpperCase()]) {
      const mentions = vocabulary().find(spelling);
      if (mentions.length === 1 && mentions[0].start === 0 && mentions[0].end === spelling.length) ids.add(mentions[0].concept.id);
    }
  }
  return { ids, names };
}

const percent = (hits: number, total: number) => Math.round((hits / total) * 1000) / 10;

interface Tally {
  vignettes: number;
  age: number;
  sex: number;
  scored: number;
  main: number;
  named: number;
  namedMain: number;
}

const empty = (): Tally => ({ vignettes: 0, age: 0, sex: 0, scored: 0, main: 0, named: 0, namedMain: 0 });
const figures = (tally: Tally) => ({
  vignettes: tally.vignettes,
  age: percent(tally.age, tally.vignettes),
  sex: percent(tally.sex, tally.vignettes),
  mainCondition: percent(tally.main, tally.scored),
  mainConditionNamedInText: percent(tally.namedMain, tally.named),
  namedInText: tally.named,
});

describe.skipIf(!existsSync(SHARED))('the note extractor on the shared vignettes', () => {
  it('reads age, sex and the main condition of hand-labelled vignettes', () => {
    const texts = loadTexts();
    const all = empty();
    const byBatch = new Map<number, Tally>();
    // SIGIR vignettes are diagnostic puzzles (findings, seldom the diagnosis); TREC 2021's are admission notes.
    const bySource = new Map<string, Tally>();
    const misses: string[] = [];
    for (const label of labels) {
      const text = texts.get(label.id);
      expect(text, label.id).toBeTypeOf('string');
      const facts = extractNoteFacts(text!, { noteId: label.id });
      const age = facts.find((fact) => fact.kind === 'age');
      const sex = facts.find((fact) => fact.kind === 'sex');
      const ageRight = age?.value != null && Math.abs(age.value - label.age) < 0.05;
      const sexRight = sex?.valueText === label.sex;
      let main: boolean | null = null;
      if (label.mainCondition) {
        const accepted = acceptedConcepts(label.accept);
        main = facts.some(
          (fact) =>
            fact.kind === 'condition' &&
            (fact.status === 'present' || fact.status === 'history') &&
            ((fact.conceptId !== null && accepted.ids.has(fact.conceptId)) || accepted.names.has(fact.name.toLowerCase())),
        );
      }
      const batch = byBatch.get(label.batch) ?? empty();
      byBatch.set(label.batch, batch);
      const sourceName = label.id.split('-')[0];
      const source = bySource.get(sourceName) ?? empty();
      bySource.set(sourceName, source);
      for (const tally of [all, batch, source]) {
        tally.vignettes++;
        tally.age += ageRight ? 1 : 0;
        tally.sex += sexRight ? 1 : 0;
        if (main === null) continue;
        tally.scored++;
        tally.main += main ? 1 : 0;
        if (!label.namedInText) continue;
        tally.named++;
        tally.namedMain += main ? 1 : 0;
      }
      // Ids and what was missed only: never the note's words.
      if (!ageRight || !sexRight || main === false)
        misses.push(
          `${label.id}:${ageRight ? '' : ' age'}${sexRight ? '' : ' sex'}${main === false ? (label.namedInText ? ' main' : ' main (not named in the text)') : ''}`,
        );
    }
    const overall = figures(all);
    console.log(
      [
        `note extractor on ${labels.length} vignettes: ${JSON.stringify(overall)}`,
        ...[...byBatch].map(([batch, tally]) => `  batch ${batch}: ${JSON.stringify(figures(tally))}`),
        ...[...bySource].map(([source, tally]) => `  ${source}: ${JSON.stringify(figures(tally))}`),
        `  misses: ${misses.join('; ') || 'none'}`,
      ].join('\n'),
    );
    // Issue 11's goals: age and sex >= 95% (reached), main condition >= 85%: reached for conditions the text
    // names (95.9% of 74 on 2026-11-24, third pass; 98.6% after three concepts joined the vocabulary;
    // docs/note-extraction.md, decision 088). Over all vignettes it
    // is not: nearly every miss is a diagnostic puzzle whose text never names the diagnosis (most SIGIR
    // vignettes). Held as a ratchet: raise these as the reader improves (92 / 64.5 before the third pass, on 55;
    // 95 / 65 after it).
    expect(overall.age).toBeGreaterThanOrEqual(95);
    expect(overall.sex).toBeGreaterThanOrEqual(95);
    expect(overall.mainConditionNamedInText).toBeGreaterThanOrEqual(97);
    // 66 since decision 192: "severe cognitive deficits" no longer reads as dementia, the accepted stand-in for one
    // vignette's unnamed Creutzfeldt-Jakob disease (sigir-20148); the deficit is a cognitive impairment, not dementia.
    expect(overall.mainCondition).toBeGreaterThanOrEqual(66);
    // On admission notes (TREC 2021), which name what the patient has as the product's notes do, the goal holds
    // over all of them (90.1% of 71 on 2026-11-24).
    expect(figures(bySource.get('trec')!).mainCondition).toBeGreaterThanOrEqual(85);
  });
});
