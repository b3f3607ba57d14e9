/**
 * The tests a diagnosis is confirmed by, as notes and criteria name them (decision 250): the note reader keeps the test
 * that showed a condition on its fact (`note-test-findings.ts`), and a site check that asks only for the trial's
 * condition confirmed by a test is met by such a fact (`test-confirmed-checks.ts`). A test belongs to a family
 * ("imaging", "tissue") so a criterion's "confirmed by imaging" or "histologically confirmed" takes any of its members.
 */

export interface ClinicalTest {
  /** The name a coordinator reads in the evidence and the fact keeps ("MRI"). */
  name: string;
  family: 'imaging' | 'tissue' | 'microbiology' | 'endoscopy' | 'physiology';
  words: string;
}

const TESTS: readonly ClinicalTest[] = [
  { name: 'MRI', family: 'imaging', words: String.raw`MRI|MR imaging|magnetic resonance(?: imaging)?` },
  { name: 'CT', family: 'imaging', words: String.raw`CT|CAT scan|computed tomography` },
  { name: 'PET', family: 'imaging', words: String.raw`PET` },
  { name: 'X-ray', family: 'imaging', words: String.raw`x-?rays?|radiographs?|radiography` },
  { name: 'ultrasound', family: 'imaging', words: String.raw`ultrasound|ultrasonography|sonograms?|sonography` },
  { name: 'echocardiogram', family: 'imaging', words: String.raw`echocardiogra(?:m|ms|phy)|TTE|TEE` },
  { name: 'angiography', family: 'imaging', words: String.raw`angiogra(?:m|ms|phy)` },
  { name: 'imaging', family: 'imaging', words: String.raw`imaging` },
  { name: 'biopsy', family: 'tissue', words: String.raw`biops(?:y|ies)` },
  {
    name: 'histology',
    family: 'tissue',
    words: String.raw`histolog(?:y|ical|ically)|histopatholog(?:y|ical|ically)|patholog(?:y|ical|ically)|cytolog(?:y|ical|ically)`,
  },
  { name: 'PCR', family: 'microbiology', words: String.raw`(?:RT-)?PCR|NAAT` },
  { name: 'culture', family: 'microbiology', words: String.raw`cultures?` },
  {
    name: 'endoscopy',
    family: 'endoscopy',
    words: String.raw`endoscop(?:y|ic|ies)|colonoscop(?:y|ic|ies)|gastroscop(?:y|ic|ies)|EGD|sigmoidoscop(?:y|ic|ies)|bronchoscop(?:y|ic|ies)`,
  },
  { name: 'catheterization', family: 'physiology', words: String.raw`(?:right |left )?(?:heart|cardiac) catheteri[sz]ation|RHC` },
  { name: 'nerve conduction study', family: 'physiology', words: String.raw`EMG|electromyograph(?:y|ic)|nerve conduction stud(?:y|ies)` },
];

/** Whole words, in any case; a word of four letters or fewer only in capitals (`testsNamedIn`). */
const PATTERNS = TESTS.map((test) => ({ test, pattern: new RegExp(String.raw`(?<![\w-])(?:${test.words})(?![\w])`, 'gi') }));

export interface TestMention {
  test: ClinicalTest;
  start: number;
  end: number;
}

/** The tests a text names, in reading order. An acronym counts only in capitals ("a pet cat" names no PET scan). */
export function testsNamedIn(text: string): TestMention[] {
  const found: TestMention[] = [];
  for (const { test, pattern } of PATTERNS) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const word = match[0];
      if (word.length <= 4 && word !== word.toUpperCase()) continue;
      found.push({ test, start: match.index, end: match.index + word.length });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The test a fact's value text names (the note reader writes the name, `note-test-findings.ts`), or null. */
export function testNamed(name: string | null): ClinicalTest | null {
  return name ? (TESTS.find((test) => test.name === name) ?? null) : null;
}

/** Whether a test a note reports answers a criterion's test: the same test, or one of the family the criterion names. */
export function testAnswers(reported: ClinicalTest, asked: ClinicalTest): boolean {
  if (reported.name === asked.name) return true;
  if (asked.name === 'imaging') return reported.family === 'imaging';
  // A biopsy is read by histology: either word in the criterion takes the other in the note.
  return asked.family === 'tissue' && reported.family === 'tissue';
}
