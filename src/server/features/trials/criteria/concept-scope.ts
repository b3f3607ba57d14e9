import type { ConceptRef, ConditionQualifier, CriterionKind } from '../../../../contract/trials';
import type { Mention } from '../vocabulary';
import type { ReadDuration, readWindow } from './durations';
import type { HeldException } from './exceptions';
import type { Span } from './text';

/**
 * The concept reader's steps hand each other these (concepts.ts reads them; conditions.ts and medications.ts make the
 * rule from them). Types only, in their own file, so the readers import no file that imports them.
 */

/** What the concept reader found in one criterion: the concepts it reads, their time and scope, the rule's name and words. */
export interface ConceptScope {
  kind: CriterionKind;
  text: string;
  /** The asserted concepts, narrowed to the first sentence, outside examples in parentheses, allergies by medicine. */
  mentions: Mention[];
  /** Sentence starts, and the sentence of the first concept. */
  starts: number[];
  firstSentence: number;
  laterSentences: boolean;
  /** Two conditions written together read as the last ("Parkinson's disease dementia"). */
  compound: boolean;
  /** Concepts after a negation the first is not under, set aside. */
  laterNegated: boolean;
  parenthetical: boolean;
  allergens: { mentions: Mention[]; narrower: boolean } | null;
  /** The first concept, the concepts of its kind (repeats too) and each once. */
  first: Mention;
  same: Mention[];
  unique: Mention[];
  lastMention: Mention;
  /** The text before the first concept; whether it is negated, and so whether the rule wants the concept. */
  before: string;
  negated: boolean;
  applies: boolean;
  anyWindow: ReturnType<typeof readWindow>;
  window: ReturnType<typeof readWindow>;
  duration: ReadDuration | null;
  spans: Span[];
  span: Span;
  concepts: ConceptRef[];
  name: string;
  /** What the criterion excepts from the concepts, when the rule can hold it (exceptions.ts, decision 202). */
  excepted?: HeldException | null;
}

/** What a person must check of a concept rule: its flags, and the words it did not read. */
export interface ConceptReview {
  needsReview: boolean;
  reasons: string[];
  left: string[];
  held: { qualifiers: ConditionQualifier[]; consumed: Map<number, number> } | null;
  everTaken: boolean;
  /** An inclusion that names an unread alternative right beside its concepts: no rule. */
  unreadAlternative: boolean;
}
