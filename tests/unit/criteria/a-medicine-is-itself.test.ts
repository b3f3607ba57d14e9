import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { inClass, vocabulary } from '../../../src/server/features/trials/vocabulary';
import { MEDICINES } from '../../../src/server/features/trials/vocabulary/hand/medicines';
import { lexicon } from '../../../src/server/features/trials/vocabulary/lexicon';
import { phraseKey } from '../../../src/server/features/trials/vocabulary/normalize';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 337: a medicine MeSH names is read as itself, its class by MeSH's pharmacological actions. New wording. */
const today = new Date('2026-06-15T12:00:00Z');
const read = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {});
const person = (note: string): MatchPerson => ({ dateOfBirth: '1958-04-02', sex: 'female', facts: noteFacts(note, today) });
const judge = (kind: 'inclusion' | 'exclusion', criterion: string, note: string) =>
  evaluateCriterion(ruleCriterion(read(kind, criterion).rule as CriterionRule, kind), person(note), today).outcome;

describe('a medicine named in a criterion', () => {
  it('is that medicine, with no review, not its class', () => {
    for (const [text, medicine] of [
      ['No tacrolimus in the 30 days before randomisation', 'tacrolimus'],
      ['Currently taking losartan', 'losartan'],
      ['On long-term pantoprazole', 'pantoprazole'],
      ['Uses lorazepam nightly', 'lorazepam'],
    ]) {
      const reading = read('exclusion', text);
      expect(reading.rule, text).toMatchObject({ type: 'medication', medication: medicine });
    }
    expect(read('exclusion', 'Currently taking losartan').needsReview).toBe(false);
  });

  it('refuses no one who takes another medicine of its class', () => {
    expect(judge('exclusion', 'Currently taking losartan', 'BP controlled on irbesartan 150 mg daily.')).toBe('unknown');
    expect(judge('exclusion', 'Current gabapentin use', 'Takes duloxetine 60 mg daily for neuropathic pain.')).toBe('unknown');
    expect(judge('exclusion', 'Current warfarin use', 'Anticoagulated with apixaban 5 mg twice daily.')).toBe('unknown');
    expect(judge('exclusion', 'Current warfarin use', 'Coumadin 3 mg daily, INR 2.4.')).toBe('not_met');
  });

  it('is caught by a criterion of its class, through MeSH', () => {
    expect(judge('inclusion', 'On a statin for at least 3 months', 'Simvastatin 20 mg nightly for years.')).toBe('met');
    expect(judge('exclusion', 'Ongoing immunosuppressive therapy', 'Kidney transplant in 2019, maintained on tacrolimus.')).toBe('not_met');
  });
});

describe('a medicine in a note', () => {
  it('stays a medicine when a time or a count follows it', () => {
    const medicines = (note: string) =>
      noteFacts(note, today)
        .filter((fact) => fact.kind === 'medication')
        .map((fact) => [fact.name, fact.status]);
    expect(medicines('Discontinued azathioprine 4 months ago because of cytopenias.')).toEqual([['azathioprine', 'history']]);
  });
});

describe('a class over a list of its medicines', () => {
  it('goes to review when a colon heads the list, and names the class alone when the medicines are its examples', () => {
    expect(read('exclusion', 'Proton pump inhibitors: omeprazole, lansoprazole')).toMatchObject({
      needsReview: true,
      reasons: expect.arrayContaining(['classThenList']),
    });
    expect(read('exclusion', 'Use of benzodiazepines (for example diazepam or lorazepam)').rule).toMatchObject({
      medication: 'benzodiazepines (such as diazepam)',
    });
  });
});

describe('the hand file of medicines', () => {
  // Aspirin stays with the antiplatelet medicines: a note's aspirin is mostly the low dose that keeps platelets apart, and
  // MeSH's action would also make it an NSAID, refusing it where an NSAID is excluded (decision 337).
  const KEPT = new Set(['aspirin']);
  it('lists no medicine MeSH names and files in the entry class itself', () => {
    const lex = lexicon();
    const listed: string[] = [];
    for (const entry of MEDICINES) {
      const concept = vocabulary().find(entry.synonyms[0])[0]?.concept;
      if (!concept) continue;
      for (const synonym of entry.synonyms) {
        const at = lex.namedBy(phraseKey(synonym));
        if (at === undefined || KEPT.has(synonym) || lex.concepts[at].kind !== 'medication') continue;
        const ui = lex.concepts[at].ui;
        if (ui === concept.descriptor || ui === concept.mesh) continue;
        if (inClass(`mesh:${ui}`, concept.id)) listed.push(`${entry.id}: ${synonym}`);
      }
    }
    expect(listed).toEqual([]);
  });
});
