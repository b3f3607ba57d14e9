import type { Lexicon } from './lexicon';
import { phraseKey, wordOrders } from './normalize';

/**
 * How a term of a heading's non-preferred concept (MeSH's narrower or related concepts, "~" in the lexicon; decision
 * 140) is read (decision 302). MeSH keeps concepts under a heading that are not that heading:
 * - a finding with several causes filed under one of them ("Foot Drop" under Peroneal Neuropathies): a disease's term
 *   that shares no word with its heading's name and does not end as a disease's name does names a finding, and is
 *   left unread rather than read as the disease;
 * - a kind named by its sibling's words ("Idiopathic Pulmonary Arterial Hypertension" under Familial Primary Pulmonary
 *   Hypertension): a term that is a qualifier the heading's name lacks before the preferred name of a heading beside
 *   it in the tree reads as that heading, what its words say, never as the sibling MeSH filed it under.
 */
export type RelatedReading = { at: number } | 'unread' | null;

/** Readings already worked out, by key (the lexicon is one per process; at most its 20,451 narrower condition keys). */
const known = new Map<string, RelatedReading>();

/** The reading of a narrower key other than its own heading; null: its heading, as MeSH files it. */
export function relatedReading(lex: Lexicon, key: string, at: number): RelatedReading {
  if (!lex.isNarrower(key) || lex.concepts[at].kind !== 'condition') return null;
  let reading = known.get(key);
  if (reading === undefined) {
    reading = readingOf(lex, key, at);
    known.set(key, reading);
  }
  return reading;
}

function readingOf(lex: Lexicon, key: string, at: number): RelatedReading {
  const words = key.split(' ');
  const named = new Set(headingWords(lex, at));
  const sibling = siblingNamed(lex, words, at, named);
  if (sibling !== undefined) return { at: sibling };
  const disease = lex.concepts[at].trees.every((tree) => /^C(?!23)/.test(tree));
  return disease && !words.some((word) => named.has(word) || DISEASE_WORD.test(word)) ? 'unread' : null;
}

/**
 * Qualifiers of how or when a condition arose, or where along a bone: they say which kind, never what the condition is
 * ("idiopathic", "early onset", "distal"). Others ("male Turner syndrome" is Noonan syndrome, "non-filarial", "allergic
 * myocardial infarction" is Kounis syndrome) may name another condition, so the term stays where MeSH files it.
 */
const KIND_QUALIFIER = /^(?:idiopathic|primary|secondary|acquired|sporadic|early|late|onset|adult|juvenile|acute|chronic|paroxysmal|distal|proximal)$/;

/** The heading beside this one whose preferred name the key ends with, after at most two kind qualifiers its own name lacks. */
function siblingNamed(lex: Lexicon, words: string[], at: number, named: Set<string>): number | undefined {
  for (let from = 1; from <= 2 && from < words.length - 1; from++) {
    const qualifiers = words.slice(0, from);
    if (qualifiers.some((word) => named.has(word) || !KIND_QUALIFIER.test(word))) return undefined;
    const rest = words.slice(from).join(' ');
    const other = lex.isPreferred(rest) ? lex.term(rest) : undefined;
    if (other !== undefined && other !== at && siblings(lex, at, other)) return other;
  }
  return undefined;
}

/**
 * A word of a disease's name ("-itis", "-itides", "-oma", "syndrome", "metastasis", a type's number or letter): a term with
 * one names a disease, a kind of its heading; one without ("foot drop", "epiphora") names a finding.
 */
const DISEASE_WORD =
  /(?:itis|itide|sis|iase|yse|ose|degeneration|cholera|influenza|shock|varix|luxation|dislocation|exanthem|malnutrition|oma|omata|pathy|phy|emia|ia|ism|allergy|trisomy|hypersensitivity|aneurysm|accident|stroke|cyst|nevus|naevus|emboli|embolus|thrombus|clot|fibroid|infestation|poisoning|bite|compression|entrapment|occlusion|obstruction|rupture|perforation|hole|hemorrhage|effusion|laceration|contusion|disease|syndrome|disorder|problem|deficiency|anomaly|malformation|defect|infection|cancer|tumor|neoplasm|fever|palsy|lesion|injury|tear|fracture|ulcer|failure|insufficiency|dysfunction|dependence|abuse|episode|event|reaction|attack|type|^\d+[a-z]?|^(?:i{1,3}|iv|vi{0,3}|ix|x|[a-z]))$/;

/** Two headings with one parent in the tree, neither under the other ("PAH" and "familial PAH" under pulmonary hypertension). */
function siblings(lex: Lexicon, a: number, b: number): boolean {
  if (lex.isA(a, b) || lex.isA(b, a)) return false;
  const parents = new Set(lex.concepts[a].trees.map((tree) => tree.slice(0, tree.lastIndexOf('.'))));
  return lex.concepts[b].trees.some((tree) => parents.has(tree.slice(0, tree.lastIndexOf('.'))));
}

/** The words of a heading's preferred name, as keys ("Peroneal Neuropathies": peroneal, neuropathy). */
function headingWords(lex: Lexicon, at: number): string[] {
  return wordOrders(lex.concepts[at].name).flatMap((order) => phraseKey(order).split(' '));
}
