import { lexicon } from './lexicon';

/**
 * MeSH's histological headings of benign tumours (tree C04.557), each with every kind under it. MeSH files benign and
 * malignant tumours under one heading, Neoplasms, which is also what "cancer" and "malignancy" read as; a benign tumour
 * is no cancer, so a note's meningioma or uterine leiomyoma never meets "no history of malignancy" (decision 349). A
 * kind under one of them whose name says it is malignant or embryonal ("Mesothelioma, Malignant" under Adenoma,
 * "Neurofibrosarcoma" under Neurofibroma, "Lipoblastoma", "Hemangioblastoma") is not counted benign.
 */
const BENIGN_HEADINGS = [
  'Adenoma',
  'Leiomyoma',
  'Lipoma',
  'Fibroma',
  'Meningioma',
  'Nevus',
  'Hemangioma',
  'Lymphangioma',
  'Neurofibroma',
  'Neurilemmoma',
  'Neuroma',
  'Osteoma',
  'Osteochondroma',
  'Chondroma',
  'Papilloma',
  'Cystadenoma',
  'Fibroadenoma',
  'Myxoma',
  'Angiomyolipoma',
] as const;

const NOT_BENIGN_NAME = /carcinoma|sarcoma|malignan|blastoma|lymphoma|leukemia|melanoma|cancer/i;

let places: { headings: number[]; neoplasms: number | undefined } | null = null;
const known = new Map<number, boolean>();

/** The benign headings' and Neoplasms' places in the lexicon, found once. */
function placesOf(): { headings: number[]; neoplasms: number | undefined } {
  const lex = lexicon();
  places ??= {
    headings: BENIGN_HEADINGS.map((name) => lex.byName(name)).filter((index): index is number => index !== undefined),
    neoplasms: lex.byName('Neoplasms'),
  };
  return places;
}

/** The heading at this lexicon index is a benign tumour: one of the headings above or a kind under one. */
function isBenignTumour(at: number): boolean {
  let answer = known.get(at);
  if (answer === undefined) {
    const lex = lexicon();
    answer = !NOT_BENIGN_NAME.test(lex.concepts[at].name) && placesOf().headings.some((heading) => lex.isA(at, heading));
    known.set(at, answer);
  }
  return answer;
}

/**
 * The tree puts `at` under `ancestor` only through Neoplasms' benign kinds: a benign tumour is no cancer, whatever the
 * tree says (the one check `isA` and `inClass` share).
 */
export function benignUnderCancer(at: number, ancestor: number): boolean {
  return ancestor === placesOf().neoplasms && isBenignTumour(at);
}
