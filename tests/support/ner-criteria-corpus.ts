import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../../src/server/seeded-random';

/**
 * A third corpus of criteria, from every therapeutic area: the 4,420 distinct criterion sentences of Facebook's
 * Clinical-Trial-Parser NER test file (../shared/data/criteria-parsing/test_processed_medical_ner.tsv, Apache-2.0),
 * read in place, never copied. The 94 records lean towards spine and a few other areas; these sentences come from
 * hundreds of trials, so a reading found on them is more likely to be a class than one record's wording.
 *
 * The file is tokenized (spaces around punctuation), lower-cased, and every number is masked as "@NUMBER". Each
 * sentence is rejoined into ordinary text, its numbers written as 2 (a number the readers treat like any other; the
 * masked values are unknown), and read both as an inclusion and as an exclusion (the file does not say which).
 *
 * The sentences are sorted, shuffled by a seeded mulberry32 Fisher-Yates (NER_SPLIT_SEED, chosen before any sentence
 * was read) and cut in two: the development part may be read and tuned on; the untuned part is only measured.
 */
export const SHARED_NER_CRITERIA = path.resolve(process.cwd(), '../shared/data/criteria-parsing/test_processed_medical_ner.tsv');
export const NER_SPLIT_SEED = 30044;

/** Undoes the file's tokenization: "( a , b )" -> "(a, b)", "@NUMBER" -> "2". */
export function rejoinTokenized(text: string): string {
  return text
    .replace(/@NUMBER/g, '2')
    .replace(/\s+([,.;:)\]%])/g, '$1')
    .replace(/([([])\s+/g, '$1')
    .replace(/\s+'s\b/g, "'s")
    .replace(/\s*\/\s*/g, '/')
    .replace(/\s+-\s*(?=\w)/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The distinct sentences of one part, rejoined; null when ../shared is absent. */
export function nerCriteriaOfPart(part: 'development' | 'untuned'): string[] | null {
  if (!existsSync(SHARED_NER_CRITERIA)) return null;
  const lines = readFileSync(SHARED_NER_CRITERIA, 'utf8').split('\n');
  const sentences = [...new Set(lines.map((line) => line.split('\t')[1]?.trim()).filter((text): text is string => Boolean(text)))].sort();
  const random = seededRandom(NER_SPLIT_SEED);
  for (let index = sentences.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [sentences[index], sentences[other]] = [sentences[other], sentences[index]];
  }
  const half = Math.floor(sentences.length / 2);
  return (part === 'development' ? sentences.slice(0, half) : sentences.slice(half)).map(rejoinTokenized);
}

/**
 * The sentences as minimal study records, 20 to a record, each sentence a bullet under the given heading: what
 * measureCorpus and the breakdown script read. No conditions are given (the file does not name the trials').
 */
export function nerCriteriaStudies(part: 'development' | 'untuned', kind: 'inclusion' | 'exclusion'): unknown[] | null {
  const sentences = nerCriteriaOfPart(part);
  if (!sentences) return null;
  const heading = kind === 'inclusion' ? 'Inclusion Criteria:' : 'Exclusion Criteria:';
  const studies: unknown[] = [];
  for (let start = 0; start < sentences.length; start += 20) {
    const bullets = sentences.slice(start, start + 20).map((text) => `* ${text}`);
    studies.push({
      protocolSection: {
        // A made-up id in the NCT shape the reader requires: 9, part, kind, then the record's number.
        identificationModule: {
          nctId: `NCT9${part === 'development' ? 1 : 2}${kind === 'inclusion' ? 1 : 2}${String(start / 20 + 1).padStart(5, '0')}`,
          briefTitle: 'Criteria sentences',
        },
        conditionsModule: { conditions: [] },
        eligibilityModule: { eligibilityCriteria: `${heading}\n\n${bullets.join('\n')}` },
      },
    });
  }
  return studies;
}
