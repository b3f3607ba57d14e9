import { testsNamedIn, type TestMention } from './clinical-tests';

/**
 * The test a note reports a condition on (decision 250): "MRI of the neck shows a C6-C7 disc herniation", "kidney
 * biopsy showed membranous nephropathy", "swab PCR positive for influenza A", "adenocarcinoma confirmed on biopsy",
 * "biopsy-proven lupus nephritis". The condition fact keeps the test's name as its value text, so a site check that
 * asks for the trial's condition confirmed by that test can be met (`test-confirmed-checks.ts`). Only a condition the
 * note asserts (present or past) is marked; one mention on a test marks the fact, whichever mention the fact keeps.
 */

interface ConditionDraft {
  key: string;
  fact: { kind: string; status: string | null; valueText: string | null; span?: { start: number; end: number } | null; sourceText?: string | null };
}

/** A test's finding verb between the test and the condition ("shows", "confirmed", "positive for", "-proven"). */
const SHOWS =
  /\b(?:shows?|showed|showing|demonstrat(?:es|ed|ing)|reveal(?:s|ed|ing)|confirm(?:s|ed|ing)|consistent with|positive for|diagnostic of|grew|growing|identified|detected|proven|documented|with evidence of)\b/i;
/** Where another clause begins, the condition is no longer the test's finding. */
const CLAUSE_BREAK =
  /[;:]|\b(?:but|however|whereas|while|although)\b|,?\s+and\s+(?:he|she|they|the patient|patient|has|had|is|was|also)\b|\b(?:no|without|normal)\b/i;
/** After the condition: "(was confirmed | seen | diagnosed 2 years ago) on / by (a recent) <test>". */
const ON_TEST =
  /^(?:[^.;:]{0,30}?\b(?:confirmed|diagnosed|seen|shown|proven|proved|documented|demonstrated|detected|identified|visible|evident)(?:\s+[\w-]+){0,3}?\s+(?:on|by|at|via|with|in)|\s*,?\s*(?:on|by))\s+(?:an?\s+|the\s+|his\s+|her\s+)?(?:(?:recent|repeat|prior|previous|lumbar|cervical|thoracic|kidney|renal|liver|lung|skin|chest|brain|spine|abdominal|nasopharyngeal|urine|blood)\s+){0,2}$/i;

function findingTest(sentence: string, start: number, end: number): TestMention | null {
  let found: TestMention | null = null;
  for (const test of testsNamedIn(sentence)) {
    if (test.end <= start) {
      const between = sentence.slice(test.end, start);
      if (between.length <= 150 && SHOWS.test(between) && !CLAUSE_BREAK.test(between.slice(between.search(SHOWS)))) found = test;
    } else if (test.start >= end && !found && ON_TEST.test(sentence.slice(end, test.start))) return test;
  }
  return found;
}

/**
 * Marks each asserted condition draft with the test a mention of it is reported on; returns the drafts (the caller
 * sorts them next). A condition reported on two tests keeps the first.
 */
export function markTestFindings<D extends ConditionDraft>(text: string, drafts: D[]): D[] {
  const tested = new Map<string, string>();
  for (const draft of drafts) {
    const { fact } = draft;
    if (fact.kind !== 'condition' || (fact.status !== 'present' && fact.status !== 'history') || !fact.span || !fact.sourceText) continue;
    if (tested.has(draft.key)) continue;
    const sentenceStart = text.lastIndexOf(fact.sourceText, fact.span.start);
    if (sentenceStart < 0) continue;
    const test = findingTest(fact.sourceText, fact.span.start - sentenceStart, fact.span.end - sentenceStart);
    if (test) tested.set(draft.key, test.test.name);
  }
  for (const draft of drafts) {
    const name = tested.get(draft.key);
    if (name && (draft.fact.status === 'present' || draft.fact.status === 'history')) draft.fact.valueText = name;
  }
  return drafts;
}
