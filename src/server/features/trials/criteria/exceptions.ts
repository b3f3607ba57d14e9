import type { ConceptRef } from '../../../../contract/trials';
import { conceptRef, inClass, isA, type Mention } from '../vocabulary';
import { lexicon } from '../vocabulary/lexicon';
import { phraseKey } from '../vocabulary/normalize';
import type { Span } from './text';

/**
 * What a criterion excepts from its concepts, held on the rule (decision 202): "any cancer other than skin cancer",
 * "lung disease except asthma", "blood thinners (excluding heparin)". The rule keeps `except`, the matcher counts no fact
 * of an excepted concept (or one under it), and the question names the exception.
 *
 * Held only when the exception says nothing else: one cue of the plain kinds below (never "unless", a condition on the
 * person, nor "but not"), every word after it a concept of the rule's own kind or a joining word, each concept a kind
 * of one of the rule's concepts (asthma is a lung disease; an exception outside the rule says something else), and no
 * concept written as "non-X" ("non-melanoma skin cancer" read as melanoma would except the opposite). Anything more
 * ("appropriately treated basal cell carcinoma", "unless it can be stopped") stays for a person.
 */
const CUE = /\b(?:except(?:\s+for)?|other\s+than|excluding|(?:with\s+)?(?:the\s+)?exceptions?\s+of|apart\s+from)\b/gi;
const ANY_CUE = /\b(?:except\w*|other\s+than|excluding|apart\s+from|but\s+not|unless|save\s+for|besides)\b/gi;
const JOINING = /^(?:or|and|nor|and\/or|a|an|the|any|for|of|than|other|except|excluding|exception|exceptions|with|apart|from)$/i;

export interface HeldException {
  /** The excepted concepts, each once. */
  concepts: ConceptRef[];
  /** The exception's words, from its cue to its end (a closing bracket or the criterion's end). */
  span: Span;
}

/** The exception a rule can hold, or null when there is none or it says more than concepts of the rule's kind. */
export function heldException(text: string, found: readonly Mention[], ruleMentions: readonly Mention[]): HeldException | null {
  const cues = [...text.matchAll(ANY_CUE)];
  if (cues.length !== 1 || !ruleMentions.length) return null;
  CUE.lastIndex = 0;
  const cue = CUE.exec(text);
  if (!cue || cue.index !== cues[0].index) return null;
  const span = exceptionSpan(text, cue.index);
  const inside = found.filter((mention) => mention.start >= span[0] && mention.end <= span[1]);
  if (!inside.length || found.some((mention) => mention.start < span[1] && mention.end > span[1])) return null;
  // Every concept of the rule sits before the exception: "other than X" after the rule's concepts, never before them.
  if (ruleMentions.some((mention) => mention.end > cue.index)) return null;
  const kind = ruleMentions[0].concept.kind;
  const ruleIds = ruleMentions.map((mention) => mention.concept.id);
  const kindOfRule = (id: string) => ruleIds.some((ruleId) => ruleId !== id && (isA(id, ruleId) || inClass(id, ruleId)));
  for (const mention of inside) {
    if (mention.concept.kind !== kind || mention.narrower || !kindOfRule(mention.concept.id)) return null;
    if (/\bnon[-\s]?$/i.test(text.slice(Math.max(0, mention.start - 4), mention.start))) return null;
    if (/\bnon\b|\bnon-?[a-z]/i.test(text.slice(mention.start, mention.end)) || broaderThanWords(mention, text.slice(mention.start, mention.end))) return null;
  }
  if (!onlyJoiningWords(text, span, inside)) return null;
  const concepts: ConceptRef[] = [];
  for (const mention of inside) if (!concepts.some((held) => held.id === mention.concept.id)) concepts.push(conceptRef(mention.concept));
  return { concepts, span };
}

/** From the cue to the end of its bracket when it opens inside one ("(excluding heparin)"), else to the criterion's end. */
function exceptionSpan(text: string, at: number): Span {
  const open = text.lastIndexOf('(', at);
  if (open > text.lastIndexOf(')', at)) {
    const close = text.indexOf(')', at);
    return [at, close < 0 ? text.length : close];
  }
  return [at, text.length];
}

/** Whether the exception's words outside its concepts only join them ("other than", "or", "the"). */
function onlyJoiningWords(text: string, span: Span, inside: readonly Mention[]): boolean {
  let rest = '';
  let at = span[0];
  for (const mention of [...inside].sort((a, b) => a.start - b.start)) {
    if (mention.start > at) rest += ` ${text.slice(at, mention.start)}`;
    at = Math.max(at, mention.end);
  }
  rest += ` ${text.slice(at, span[1])}`;
  if (/[^\s\w,/.()-]/.test(rest)) return false;
  return (rest.match(/[a-z0-9][a-z0-9/-]*/gi) ?? []).every((word) => JOINING.test(word));
}

/**
 * Words that name less than the concept read: their own MeSH heading, narrower than it, or one synonym of a reviewed
 * hand entry that gathers several ("basal cell carcinoma" of the hand entry skin cancer). Excepting the concept would
 * except more than the criterion does, so the exception is not held; a hand entry counts only by its own name.
 */
function broaderThanWords(mention: Mention, words: string): boolean {
  const key = phraseKey(words);
  if (mention.concept.id.startsWith('cohortly:')) return key !== phraseKey(mention.concept.en.replace(/\s*\([^)]*\)/g, '').replace(/^(?:an?|the)\s+/i, ''));
  const heading = mention.concept.descriptor ?? mention.concept.mesh;
  const lex = lexicon();
  const named = lex.term(key);
  if (named === undefined) return false;
  return heading === undefined || lex.byId(heading) !== named;
}

/** What opens an exception the rule's concepts never come from: "except", "other than", "excluding", "unless". */
const EXCEPTION = /\b(?:except(?:\s+for)?|other than|excluding|(?:with\s+)?(?:the\s+)?exceptions?\s+of|apart from|but not|unless)\b/i;

/** Where an exception runs: to the end of its parenthesis when it sits in one ("(excluding topical)"), else to the end. */
export function exceptionScope(text: string): Span | null {
  const found = EXCEPTION.exec(text);
  if (!found) return null;
  const open = text.lastIndexOf('(', found.index);
  const closeBefore = text.lastIndexOf(')', found.index);
  if (open > closeBefore) {
    const close = text.indexOf(')', found.index);
    return [found.index, close < 0 ? text.length : close];
  }
  return [found.index, text.length];
}
