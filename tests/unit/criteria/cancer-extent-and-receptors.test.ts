import { describe, expect, it } from 'vitest';
import { readTextRule } from '../../../src/server/features/trials/criteria';
import { evaluateCriterion, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { isA } from '../../../src/server/features/trials/vocabulary';
import { SYNONYMS } from '../../../src/server/features/trials/vocabulary/synonyms';
import { noteFacts, ruleCriterion } from '../../support/match-facts';

/** Decision 316: a cancer's extent, course and receptors, read beside a cancer in criteria and notes. New wording throughout. */
const today = new Date('2026-06-15T12:00:00Z');
const rule = (kind: 'inclusion' | 'exclusion', text: string) => readTextRule(kind, text, {}).rule as { type: string; present?: boolean; qualifiers?: string[] };
const named = (text: string) =>
  extractNoteFacts(text, { today })
    .filter((fact) => fact.kind === 'condition')
    .map((fact) => fact.name);
const person = (text: string): MatchPerson => ({
  dateOfBirth: null,
  sex: 'unknown',
  facts: noteFacts(text, today),
});

describe('every cancer the hand vocabulary names', () => {
  it('sits under MeSH’s neoplasms, so "any malignancy" and a trial of that cancer reach it', () => {
    const cancers = SYNONYMS.filter((entry) => entry.kind === 'condition' && /\bcancer\b/.test(entry.en));
    expect(cancers.length).toBeGreaterThan(20);
    expect(cancers.filter((entry) => !isA(`cohortly:${entry.id}`, 'mesh:D009369')).map((entry) => entry.id)).toEqual([]);
  });
});

describe('a cancer’s extent and course in a criterion', () => {
  it('are qualifiers of the cancer', () => {
    expect(rule('inclusion', 'Metastatic colorectal cancer')).toMatchObject({ type: 'condition', present: true, qualifiers: ['metastatic'] });
    expect(rule('inclusion', 'Unresectable or metastatic gastric cancer')).toMatchObject({ qualifiers: ['advanced'] });
    expect(rule('inclusion', 'Relapsed/refractory multiple myeloma')).toMatchObject({ qualifiers: ['relapsed_or_refractory'] });
  });

  it('keeps "locally" unread, which "advanced" alone would not say', () => {
    const read = readTextRule('inclusion', 'Locally advanced rectal cancer', {});
    expect(read.needsReview).toBe(true);
    expect(read.unread).toContain('locally');
  });

  it('are not read beside a condition that is no cancer', () => {
    expect(rule('inclusion', 'Advanced chronic kidney disease').qualifiers ?? []).not.toContain('advanced');
  });
});

describe('a cancer’s receptors in a criterion', () => {
  it('are qualifiers, and a marker’s "negative" never negates the cancer', () => {
    expect(rule('inclusion', 'ER-positive or PR-positive, HER2-negative breast carcinoma')).toMatchObject({ present: true });
    expect(rule('inclusion', 'Hormone receptor positive, HER2 negative breast cancer')).toMatchObject({
      present: true,
      qualifiers: expect.arrayContaining(['her2_negative', 'hormone_receptor_positive']),
    });
    expect(rule('exclusion', 'HER2-negative breast cancer')).toMatchObject({ present: false, qualifiers: ['her2_negative'] });
  });

  it('do not make the hormone a medicine the person takes', () => {
    expect(rule('inclusion', 'Hormone receptor-positive breast cancer')).toMatchObject({ type: 'condition' });
  });
});

describe('a cancer’s extent and receptors in a note', () => {
  it('are written into the fact’s name', () => {
    expect(named('68-year-old with metastatic HER2-positive breast cancer on trastuzumab.')).toContain('breast cancer (HER2-positive, metastatic)');
    expect(named('ER+/PR- HER2- breast cancer, on letrozole.')).toContain('breast cancer (HER2-negative, hormone receptor-positive)');
  });

  it('read its spread and stage right after or before it, and only for a cancer', () => {
    expect(named('Pancreatic adenocarcinoma with liver metastases, on gemcitabine.')).toContain('pancreatic cancer (metastatic)');
    expect(named('Stage IV melanoma of the back.').some((name) => /\(metastatic\)/.test(name))).toBe(true);
    expect(named('Colon cancer, stage IIIC, resected.').some((name) => /\(advanced\)/.test(name))).toBe(true);
    expect(named('Type 2 diabetes and bone metastases from a prostate primary.')).not.toContain('type 2 diabetes (metastatic)');
  });

  it('read past a short bracket between the cancer and its spread or stage', () => {
    expect(named('Gastric adenocarcinoma (HER2 3+) with several peritoneal metastases.').some((name) => /\(.*metastatic.*\)/.test(name))).toBe(true);
    expect(named('Squamous cell lung carcinoma (PD-L1 TPS 60%), stage IIIA.').some((name) => /\(.*advanced.*\)/.test(name))).toBe(true);
  });

  it('decide a criterion that names them, and leave a note without them unknown', () => {
    const her2Positive = ruleCriterion(
      {
        type: 'condition',
        condition: 'breast cancer',
        present: true,
        qualifiers: ['her2_positive'],
        concepts: [{ id: 'cohortly:breast-cancer', name: 'breast cancer' }],
      },
      'inclusion',
    );
    expect(evaluateCriterion(her2Positive, person('Woman of 51 with HER2-positive breast cancer.'), today).outcome).toBe('met');
    expect(evaluateCriterion(her2Positive, person('Woman of 51 with triple-negative breast cancer.'), today).outcome).toBe('not_met');
    expect(evaluateCriterion(her2Positive, person('Woman of 51 with breast cancer.'), today).outcome).toBe('unknown');
    const advanced = ruleCriterion(
      { type: 'condition', condition: 'lung cancer', present: true, qualifiers: ['advanced'], concepts: [{ id: 'cohortly:lung-cancer', name: 'lung cancer' }] },
      'inclusion',
    );
    expect(evaluateCriterion(advanced, person('Man of 70 with metastatic lung adenocarcinoma.'), today).outcome).toBe('met');
  });
});
