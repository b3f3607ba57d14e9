import type { ConditionQualifier } from '../../../contract/trials';
import { vocabulary } from '../trials/vocabulary';
import { type ClinicalTest, testsNamedIn } from './clinical-tests';
import { isA } from './concept-hierarchy';

/**
 * A site check that asks only for the trial's condition confirmed by a test (decision 250): "MRI of the lumbar spine
 * showing the disc herniation", "diagnosed with TDH as a result of thoracic MRI", "MRI to confirm the diagnosis",
 * "biopsy-proven membranous nephropathy". The criteria reader leaves such a criterion to site staff; a coordinator
 * reads it as met when the note reports the trial's condition on that test, and the note reader keeps the test on the
 * condition fact (`note-test-findings.ts`). Read only when every other word of the criterion is a word of confirming
 * (a criterion that also asks for one level, a size, a nerve root impinged, two herniations... stays the site's):
 * - the condition is one the vocabulary reads in the criterion that is the trial's condition, a form of it or what it
 *   is a form of; an abbreviation of the trial's listed condition ("TDH" for thoracic disc herniation); or, where the
 *   criterion names none, "the diagnosis" (the trial's condition);
 * - a part of the spine the criterion names ("lumbar", "thoracic MRI") must be in the fact's name; "level(s)" asks for
 *   a fact that names its spinal level.
 * It is met by such a fact, never "not met" (a note that does not name the test says nothing of it), and stays a site
 * check for a criterion of a cohort or an exclusion.
 */
export interface TestConfirmedCheck {
  concepts: Array<{ id: string; name: string }>;
  tests: ClinicalTest[];
  qualifiers: ConditionQualifier[];
  /** "and level(s)": the fact must name a spinal level. */
  level: boolean;
  label: string;
}

interface CriterionLike {
  id: string;
  kind: 'inclusion' | 'exclusion';
  rule: { type: string; present?: boolean; concepts?: ReadonlyArray<{ id: string; name: string }> } | null;
  ruleSource: string | null;
  needsReview: boolean;
  population: string | null;
  text?: string;
}

/** The words a criterion confirms a diagnosis in: any other word asks something else. */
const CONFIRMING = new Set(
  (
    'the a an of on by with as result to in at for from and or be is are was has have having who must its their ' +
    'patients patient subjects participants people diagnosed diagnosis diagnostic confirm confirms confirmed confirming ' +
    'confirmation show shows showed showing shown demonstrate demonstrates demonstrated demonstrating documented ' +
    'documentation evidence proven proved established made verified assessed based findings finding test tests scan scans ' +
    'examination presence ' +
    'spine spinal vertebral'
  ).split(' '),
);
const REGIONS: Record<string, ConditionQualifier> = { lumbar: 'lumbar', lumbosacral: 'lumbar', thoracic: 'thoracic', cervical: 'cervical' };
const LEVEL_WORDS = new Set(['level', 'levels', 's']);
const INITIALS_SKIP = new Set(['of', 'and', 'the', 'with', 'in', 'or']);

/** "Thoracic Disc Herniation" -> "TDH". */
const initialsOf = (name: string) =>
  (name.match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((word) => !INITIALS_SKIP.has(word.toLowerCase()))
    .map((word) => word[0].toUpperCase())
    .join('');

/** The trial's condition: its target criterion's concepts, else what its reviewed inclusions plainly ask of everyone. */
function trialConditions(criteria: readonly CriterionLike[]): Array<{ id: string; name: string }> {
  const target = criteria.filter((criterion) => criterion.ruleSource === 'target' || criterion.ruleSource === 'target-open');
  const asked = target.length
    ? target
    : criteria.filter((c) => c.kind === 'inclusion' && !c.population && !c.needsReview && c.rule?.type === 'condition' && c.rule.present);
  return asked.flatMap((criterion) => [...(criterion.rule?.concepts ?? [])]);
}

const related = (id: string, own: ReadonlyArray<{ id: string }>) => own.some((concept) => concept.id === id || isA(id, concept.id) || isA(concept.id, id));

/** One criterion's reading, or null when it asks more than the trial's condition confirmed by a test. */
function readCheck(criterion: CriterionLike, own: ReadonlyArray<{ id: string; name: string }>): TestConfirmedCheck | null {
  const text = criterion.text;
  if (!text || criterion.rule?.type !== 'site_judgement' || criterion.kind !== 'inclusion' || criterion.population || !own.length) return null;
  const tests = testsNamedIn(text);
  if (!tests.length) return null;
  const covered: Array<[number, number]> = tests.map((test) => [test.start, test.end]);
  const concepts = new Map<string, { id: string; name: string }>();
  for (const mention of vocabulary().find(text)) {
    // A test the vocabulary also reads as a procedure ("endoscopy") is the test, not a second condition.
    if (mention.concept.kind !== 'condition' || tests.some((test) => test.start < mention.end && mention.start < test.end)) continue;
    if (!related(mention.concept.id, own)) return null;
    concepts.set(mention.concept.id, { id: mention.concept.id, name: mention.concept.en });
    covered.push([mention.start, mention.end]);
  }
  for (const match of text.matchAll(/\b[A-Z]{2,6}\b/g)) {
    const named = own.find((concept) => initialsOf(concept.name) === match[0]);
    if (!named) continue;
    concepts.set(named.id, named);
    covered.push([match.index, match.index + match[0].length]);
  }
  const qualifiers = new Set<ConditionQualifier>();
  let level = false;
  let diagnosis = false;
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (covered.some(([start, end]) => match.index >= start && match.index < end)) continue;
    const word = match[0].toLowerCase();
    if (REGIONS[word]) qualifiers.add(REGIONS[word]);
    else if (LEVEL_WORDS.has(word)) level = true;
    else if (!CONFIRMING.has(word)) return null;
    if (word.startsWith('diagnos')) diagnosis = true;
  }
  const asked = concepts.size ? [...concepts.values()] : diagnosis ? [...own] : [];
  if (!asked.length) return null;
  const label = asked.map((concept) => concept.name).join(' or ');
  return { concepts: asked, tests: tests.map((test) => test.test), qualifiers: [...qualifiers], level, label };
}

const cache = new WeakMap<readonly CriterionLike[], Array<TestConfirmedCheck | null>>();

/** Per criterion of a trial (its target condition among them): its test-confirmed check, or null. */
export function testConfirmedChecks(criteria: readonly CriterionLike[]): Array<TestConfirmedCheck | null> {
  let found = cache.get(criteria);
  if (!found) {
    const own = trialConditions(criteria);
    found = criteria.map((criterion) => readCheck(criterion, own));
    cache.set(criteria, found);
  }
  return found;
}
