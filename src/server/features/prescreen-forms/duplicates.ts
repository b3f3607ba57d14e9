import type { AnswerPredicate, CriterionLink, DeduplicationChoice, DuplicatePair, Question, QuestionType, StudyBlock } from '../../../contract/prescreen-forms';
import { badRequest } from '../../http/errors';

/**
 * Duplicate questions (docs/decisions/007-prescreen-forms.md): deterministic, offline.
 * Wording (English, phone and chat) is normalized: lowercase, accents and punctuation stripped, stop words
 * dropped, a light suffix stemmer. The score is the Jaccard similarity of the token sets, plus 0.1 for the
 * same answer type, 0.1 for the same unit and 0.2 for a shared criterion; the same topic (date of birth,
 * sex, pregnancy) scores at least 0.9 and identical normalized wording 1. Pairs at 0.6 or more are reported.
 */

export const DUPLICATE_THRESHOLD = 0.6;

const STOP_WORDS = new Set(
  `a an the and or of to in on at for with by from as is are was were be been being am do does did have has had
   you your yours yourself i me my we our us it its this that these those there here what which who whom when
   where how any ever currently current now please tell could would can will shall may might just so if not no
   yes about ask describe describes following most`.split(/\s+/),
);

/** Words that ask the same thing, to one word (before stemming). */
const SYNONYMS: Record<string, string> = {
  latest: 'recent',
  last: 'recent',
  value: 'result',
  level: 'result',
  reading: 'result',
  born: 'birth',
  birthday: 'birth',
  dob: 'birth',
  medicine: 'medication',
  medicines: 'medication',
  drug: 'medication',
  drugs: 'medication',
  diagnosis: 'diagnosed',
};

/** A light stemmer: enough for "diagnosed"/"diagnosis"/"diagnoses" and plurals to meet. */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'edly', 'ed', 'ies', 'es', 'is', 's', 'ly', 'y']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) return word.slice(0, -suffix.length);
  }
  return word;
}

export function tokens(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s]+/g, ' ')
    .split(/\s+/)
    .filter((word) => word && !STOP_WORDS.has(word))
    .map((word) => stem(SYNONYMS[word] ?? word));
}

const questionTokens = (question: Question) => new Set([...tokens(question.wording.chat.en), ...tokens(question.wording.phone.en)]);
const normalizedWording = (question: Question) => tokens(question.wording.chat.en).join(' ');

/** Topics, most specific first: "sex assigned at birth" is about sex, not the date of birth. */
const TOPICS: Array<{ name: string; words: RegExp }> = [
  { name: 'sex', words: /\b(sex|gender)\b/ },
  { name: 'date of birth', words: /\b(date of birth|born|birthday|dob|how old|your age|age)\b/ },
  { name: 'pregnancy', words: /\b(pregnant|pregnancy|breastfeeding|breast feeding|lactating|nursing)\b/ },
];

/**
 * Words of the generator's templates ("What was your most recent ... result", "Have you been told by a doctor
 * that you have ...", "Staff: ..."): shared by questions about different things, so they never make a pair
 * on their own. Two questions whose other words have nothing in common ask about different things.
 */
const TEMPLATE_WORDS = new Set(
  tokens(
    `what was most recent result staff been told doctor that have has had ever taking taken take received receiving receive
     last past months month weeks week days day years year sure just say number value count level test
     diagnosed diagnosis condition medication person criterion met apply full`,
  ),
);
const contentWords = (words: Set<string>, unit?: string) => {
  const unitWords = new Set(tokens(unit ?? ''));
  return new Set([...words].filter((word) => !TEMPLATE_WORDS.has(word) && !unitWords.has(word) && !/^\d+$/.test(word) && word.length > 1));
};

function topicOf(question: Question): string | null {
  const text = `${question.wording.chat.en} ${question.wording.phone.en}`.toLowerCase();
  return TOPICS.find(({ words }) => words.test(text))?.name ?? null;
}

const TYPE_PHRASE: Record<QuestionType, string> = {
  yes_no: 'a yes/no',
  number: 'a number',
  single_choice: 'a choice',
  multiple_choice: 'a choice',
  date: 'a date',
  text: 'a free-text answer',
};

export interface DetectOptions {
  /** How to name a criterion in a reason, e.g. "criterion 3"; default: its id. */
  criterionLabel?: (criterionId: string) => string;
}

/** Pairs of questions (across the whole form) that look like they ask the same thing, best first. */
export function detectDuplicates(blocks: StudyBlock[], options: DetectOptions = {}): DuplicatePair[] {
  const label = options.criterionLabel ?? ((id: string) => `criterion ${id}`);
  const all = blocks.flatMap((block) => block.questions.map((question) => ({ block: block.id, question, words: questionTokens(question) })));
  const pairs: DuplicatePair[] = [];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i];
      const b = all[j];
      const union = new Set([...a.words, ...b.words]);
      const shared = [...a.words].filter((word) => b.words.has(word));
      const jaccard = union.size ? shared.length / union.size : 0;
      const sameType = a.question.type === b.question.type || (a.question.type.endsWith('choice') && b.question.type.endsWith('choice'));
      const sameUnit = Boolean(a.question.unit && b.question.unit && a.question.unit.toLowerCase() === b.question.unit.toLowerCase());
      const aCriteria = new Set(a.question.criterionLinks.map((link) => link.criterionId));
      const sharedCriterion = b.question.criterionLinks.map((link) => link.criterionId).find((id) => aCriteria.has(id));
      const topicA = topicOf(a.question);
      const sameTopic = topicA !== null && topicA === topicOf(b.question);
      // Two measurements in different units ("BMI in kg/m2", "eGFR in mL/min") share the template's words but
      // never ask the same thing, unless they decide the same criterion.
      const differentMeasures = a.question.type === 'number' && b.question.type === 'number' && Boolean(a.question.unit && b.question.unit) && !sameUnit;
      if (differentMeasures && !sharedCriterion) continue;
      // Sharing only template words ("most recent ... result" for ANC and platelets; "told by a doctor" for
      // two conditions) is not asking the same thing.
      const contentA = contentWords(a.words, a.question.unit);
      const contentB = contentWords(b.words, b.question.unit);
      const sharedContent = [...contentA].some((word) => contentB.has(word));
      if (!sharedContent && contentA.size > 0 && contentB.size > 0 && !sharedCriterion && !(topicA !== null && topicA === topicOf(b.question))) continue;

      let score = jaccard + (sameType ? 0.1 : 0) + (sameUnit ? 0.1 : 0) + (sharedCriterion ? 0.2 : 0);
      let reason: string;
      const identical = normalizedWording(a.question) === normalizedWording(b.question) && normalizedWording(a.question) !== '';
      if (identical) {
        score = 1;
        reason = 'Same wording after normalization';
      } else if (sameTopic && sharedCriterion) {
        score = Math.max(score, 0.95);
        reason = `Both linked to ${label(sharedCriterion)} and ask ${TYPE_PHRASE[a.question.type]} about ${topicA}`;
      } else if (sameTopic) {
        score = Math.max(score, 0.9);
        reason = `Both ask about ${topicA}`;
      } else if (sharedCriterion) {
        reason = `Both linked to ${label(sharedCriterion)} and ask ${TYPE_PHRASE[a.question.type]} about ${shared.length ? shared.join(', ') : 'it'}`;
      } else {
        reason = `Similar wording (shared words: ${shared.join(', ') || 'none'})`;
      }
      // Only identical wording scores 1.
      score = Math.round(Math.min(identical ? 1 : 0.99, score) * 100) / 100;
      if (score >= DUPLICATE_THRESHOLD) pairs.push({ questionA: a.question.id, questionB: b.question.id, blockA: a.block, blockB: b.block, score, reason });
    }
  }
  // Stable: score, then form order (the loop order).
  return pairs
    .map((pair, index) => ({ pair, index }))
    .sort((x, y) => y.pair.score - x.pair.score || x.index - y.index)
    .map(({ pair }) => pair);
}

// ---- merging ----

const OPS_BY_TYPE: Record<QuestionType, ReadonlySet<AnswerPredicate['op']>> = {
  yes_no: new Set(['is_yes', 'is_no', 'answered']),
  number: new Set(['lt', 'lte', 'gt', 'gte', 'eq', 'neq', 'between', 'answered']),
  date: new Set(['lt', 'lte', 'gt', 'gte', 'eq', 'neq', 'between', 'age_lt', 'age_gte', 'answered']),
  single_choice: new Set(['in', 'answered']),
  multiple_choice: new Set(['in', 'answered']),
  text: new Set(['answered']),
};

/** Whether a predicate can test an answer to a question of this type. */
export const predicateFits = (type: QuestionType, predicate: AnswerPredicate) => OPS_BY_TYPE[type].has(predicate.op);

const labelKey = (text: string) => tokens(text).join(' ');

/**
 * A link of the removed question, as a link of the kept one: unchanged when its test reads the kept answer the
 * same way; an `in` test rewritten to the kept question's option values (by value, else by English label);
 * otherwise kept as "answered -> review", with a note, so no criterion loses its link.
 */
function carryLink(link: CriterionLink, from: Question, to: Question): { link: CriterionLink; note?: string } {
  const when = link.when;
  const asReview = (why: string) => ({
    link: { criterionId: link.criterionId, when: { op: 'answered' as const }, then: 'review' as const },
    note: `Question "${to.id}" keeps criterion ${link.criterionId}'s link from "${from.id}" as 'review': ${why}`,
  });
  if (when.op === 'answered') return { link };
  if (!predicateFits(to.type, when)) return asReview(`a ${from.type} test ("${when.op}") cannot read a ${to.type} answer`);
  if (to.type === 'number' && from.unit && to.unit && from.unit.toLowerCase() !== to.unit.toLowerCase()) {
    return asReview(`the units differ (${from.unit} and ${to.unit})`);
  }
  if ((to.type === 'number' || to.type === 'date') && 'value' in when && !when.op.startsWith('age_')) {
    const bounds = when.op === 'between' ? [when.value, when.upper] : [when.value];
    const wanted = to.type === 'number' ? 'number' : 'string';
    if (bounds.some((bound) => typeof bound !== wanted)) return asReview(`a ${from.type} comparison cannot read a ${to.type} answer`);
  }
  if (when.op === 'in') {
    const values: string[] = [];
    for (const value of when.values) {
      const fromOption = from.options?.find((option) => option.value === value);
      const match =
        to.options?.find((option) => option.value === value) ??
        (fromOption ? to.options?.find((option) => labelKey(option.label.en) === labelKey(fromOption.label.en)) : undefined);
      if (!match) return asReview(`"${to.id}" has no option matching "${value}"`);
      if (!values.includes(match.value)) values.push(match.value);
    }
    return { link: { ...link, when: { op: 'in', values } } };
  }
  return { link };
}

export interface DeduplicationResult {
  blocks: StudyBlock[];
  notes: string[];
}

/**
 * Merges each chosen pair: the removed question's criterion links move onto the kept one (identical links
 * once), the kept question becomes required if either was, the removed question goes, and blocks left empty
 * go. Chains work ("keep a, remove b" then "keep b, remove c" keeps a). Unknown ids answer 400.
 */
export function applyDeduplication(blocks: StudyBlock[], choices: DeduplicationChoice[]): DeduplicationResult {
  const copy: StudyBlock[] = structuredClone(blocks);
  const byId = new Map<string, Question>();
  for (const block of copy) for (const question of block.questions) byId.set(question.id, question);
  const issues: Array<{ path: string; message: string }> = [];
  choices.forEach((choice, index) => {
    for (const side of ['keep', 'remove'] as const) {
      if (!byId.has(choice[side])) issues.push({ path: `pairs.${index}.${side}`, message: `No question "${choice[side]}" in these blocks` });
    }
    if (choice.keep === choice.remove) issues.push({ path: `pairs.${index}.remove`, message: `A question cannot be merged into itself ("${choice.keep}")` });
  });
  if (issues.length) throw badRequest(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '), issues);

  const mergedInto = new Map<string, string>();
  const survivor = (id: string) => {
    let current = id;
    while (mergedInto.has(current)) current = mergedInto.get(current)!;
    return current;
  };
  const notes: string[] = [];
  for (const choice of choices) {
    const keep = survivor(choice.keep);
    const remove = survivor(choice.remove);
    if (keep === remove) continue;
    const kept = byId.get(keep)!;
    const removed = byId.get(remove)!;
    for (const link of removed.criterionLinks) {
      const carried = carryLink(link, removed, kept);
      if (carried.note) notes.push(carried.note);
      const text = JSON.stringify(carried.link);
      if (!kept.criterionLinks.some((existing) => JSON.stringify(existing) === text)) kept.criterionLinks.push(carried.link);
    }
    kept.required = kept.required || removed.required;
    mergedInto.set(remove, keep);
  }
  const removedIds = new Set(mergedInto.keys());
  const result = copy
    .map((block) => ({ ...block, questions: block.questions.filter((question) => !removedIds.has(question.id)) }))
    .filter((block) => block.questions.length > 0);
  return { blocks: result, notes };
}
