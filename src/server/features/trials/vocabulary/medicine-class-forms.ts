/**
 * A class of medicines written otherwise than MeSH names it (decision 307), read as the class the words name:
 * - "anti-" and what it acts against: "anti-TNF therapy", "anti-platelet agents", "anti-fungal treatment", "anti-diabetic
 *   medication", "anti-IL-6". MeSH names these classes joined ("Antiplatelet Drugs", "Antifungal Agents", "Antidiabetic
 *   Agents") or by their target ("TNF Inhibitors", "Interleukin-6 Inhibitors"); the recognizer's longest match finds
 *   neither in the hyphenated words, and read "anti-diabetic" as diabetes, "anti-tumor" as a tumour;
 * - "TNF-alpha inhibitors", which MeSH names without the "alpha";
 * - "<action> therapy": "antimicrobial treatment", "antithyroid therapy" are therapy with the agents of that
 *   pharmacological action (MeSH D27), where MeSH has no heading of the therapy ("thrombolytic therapy" keeps its own).
 * - an enzyme's inhibitors or inducers, however the enzyme is written ("cytochrome P450 3A4 inhibitors", `enzyme-class-forms.ts`).
 * Only a medication of the lexicon or the hand file is read, never a guessed one: "anti-VEGF" (no MeSH class) stays
 * unread; "anti-HCV antibody", "anti-nuclear antibodies" (tests of the blood, not treatments) are never read here.
 */

import { enzymeClassMentions } from './enzyme-class-forms';
import { lexicon } from './lexicon';

/** A heading under MeSH's pharmacological actions (D27): a class of medicines by what they do. */
export function isActionClass(at: number | undefined): boolean {
  return at !== undefined && lexicon().concepts[at].trees.some((tree) => tree.startsWith('D27'));
}

interface Found {
  concept: { kind: string };
  start: number;
  end: number;
}

/** What the hand file and the lexicon name a phrase as, when it is a medication (`action`: a pharmacological action's class, MeSH D27). */
export type MedicineNamed<C> = (phrase: string, action?: boolean) => C | undefined;

/** "Anti-TNF", "anti platelet", "anti-IL-6", "anti-TNF-α": the prefix and its target (a word, or a word and a short part). */
const ANTI = /\banti[-\s]([a-z][a-z0-9]*(?:-(?:[a-z0-9]{1,2}|alpha|α))?)(?=$|[^a-z0-9-]|-(?:na[iï]ve|experienced|refractory|resistant|intolerant)\b)/gi;
/** The head nouns a class is treated with; MeSH's own heads of a class ("agents", "drugs") are tried in their place. */
const CLASS_HEAD = /^[-\s]+(therap(?:y|ies)|treatments?|agents?|drugs?|medications?|medicines?)\b/i;
/** Words after the target that make it an antibody a test finds in the blood, or a lab value. */
const A_TEST = /^[-\s]*(?:\(?[a-z0-9]{1,4}\)?\s+)?(?:antibod(?:y|ies)|abs?\b|igg|igm|titers?|titres?|positiv\w*|negativ\w*|levels?|assay|test\w*|serolog\w*)/i;
/** "TNF-alpha inhibitors", "TNF-α blockers": the target's alpha form, whose class MeSH names without it. */
const ALPHA_CLASS = /\b((?:[a-z0-9]+[\s-]){0,2}[a-z0-9]+)[\s-]?(?:alpha|α)[\s-]+(inhibitors?|antagonists?|blockers?)\b/gi;

const overlaps = (a: { start: number; end: number }, start: number, end: number) => a.start < end && a.end > start;

/** The class an "anti-" form names, and where its words end. */
function antiClass<C>(text: string, match: RegExpMatchArray, named: MedicineNamed<C>): { concept: C; end: number } | null {
  const start = match.index ?? 0;
  const targetEnd = start + match[0].length;
  const after = text.slice(targetEnd);
  if (A_TEST.test(after)) return null;
  const head = CLASS_HEAD.exec(after);
  // "Anti-tumor necrosis factor therapy": the target goes on past its first word; read only as the longer target's class.
  const longer = head ? null : /^\s+((?:[a-z0-9]+[\s-]){0,2}[a-z0-9]+)/i.exec(after);
  if (longer && !PHRASE_END.test(longer[1].split(/[\s-]/)[0])) return longerTarget(match, longer, named);
  const target = match[1].toLowerCase();
  const plain = target.replace(/[-\s]?(?:alpha|α)$/, '');
  const headEnd = head ? targetEnd + head[0].length : targetEnd;
  const joined = `anti${plain.replace(/-/g, '')}`;
  const withHead = head ? [`${joined} ${head[1]}`, `anti ${plain} ${head[1]}`] : [];
  // "Anti-tumor therapy" is therapy with antitumor agents: MeSH's heads of the class stand for the written one.
  const classHeads = [`${joined} agents`, `${joined} drugs`, `anti ${plain} agents`, `anti ${plain} drugs`];
  for (const phrase of [...withHead, ...classHeads]) {
    const concept = named(phrase);
    if (concept) return { concept, end: headEnd };
  }
  for (const phrase of [joined, `${plain} inhibitors`, `${plain} antagonists`, `${plain} blockers`, `${plain} receptor antagonists`]) {
    const concept = named(phrase);
    if (concept) return { concept, end: targetEnd };
  }
  return null;
}

/** Words that end the target's phrase: a conjunction, a preposition, a time or a verb of the criterion. */
const PHRASE_END =
  /^(?:or|and|nor|with|without|in|of|on|at|for|to|as|by|from|within|during|after|before|since|prior|is|are|was|were|has|have|had|not|including|except|other|use|used|exposure|the|a|an|any|previously|currently|na[iï]ve|experienced|refractory|resistant|intoleran\w*|treated|exposed|users?|patients?)$/i;

/** "Anti-tumor necrosis factor (therapy)": the class of the whole target ("tumor necrosis factor inhibitors"), or nothing. */
function longerTarget<C>(match: RegExpMatchArray, longer: RegExpExecArray, named: MedicineNamed<C>): { concept: C; end: number } | null {
  const start = match.index ?? 0;
  const words = longer[1].split(/[\s-]+/);
  for (let size = words.length; size >= 1; size--) {
    const target = [match[1], ...words.slice(0, size)].join(' ').replace(/[-\s]?(?:alpha|α)$/i, '');
    for (const phrase of [`${target} inhibitors`, `${target} antagonists`, `${target} blockers`]) {
      const concept = named(phrase);
      if (!concept) continue;
      const wordsEnd = longer[0].toLowerCase().indexOf(words[size - 1].toLowerCase()) + words[size - 1].length;
      return { concept, end: start + match[0].length + wordsEnd };
    }
  }
  return null;
}

/** "Immunomodulatory therapy", "antimicrobial treatment": the action's word before a head noun of treatment. */
const ACTION_THERAPY = /\b([a-z][a-z-]{4,})\s+(?:therap(?:y|ies)|treatments?)\b/gi;

/** The mentions with the classes of "anti-" forms, "X-alpha inhibitors" and "<action> therapy" added, replacing what their words were read as. */
export function withClassForms<M extends Found, C>(text: string, mentions: M[], named: MedicineNamed<C>): Array<M | (Found & { concept: C })> {
  if (!/\banti[-\s]|alpha|α|therap|treatment|cyp|p-?450/i.test(text)) return mentions;
  // An enzyme's inhibitors or inducers, in any of the forms criteria write them.
  const added: Array<Found & { concept: C }> = enzymeClassMentions(text, named);
  for (const match of text.matchAll(ANTI)) {
    const start = match.index ?? 0;
    // "Anti-CD20", "anti-inflammatory agents", "anti-androgen": a medication the recognizer already read from these words.
    if (mentions.some((mention) => mention.concept.kind === 'medication' && mention.start <= start && mention.end > start)) continue;
    const found = antiClass(text, match, named);
    if (found) added.push({ concept: found.concept, start, end: found.end } as Found & { concept: C });
  }
  for (const match of text.matchAll(ALPHA_CLASS)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (mentions.some((mention) => mention.concept.kind === 'medication' && overlaps(mention, start, end)) || added.some((item) => overlaps(item, start, end)))
      continue;
    const words = match[1].split(/[\s-]+/);
    // The longest target first: "tumor necrosis factor alpha inhibitors", then "factor alpha inhibitors".
    for (let from = 0; from < words.length; from++) {
      const concept = named(`${words.slice(from).join(' ')} ${match[2]}`);
      if (!concept) continue;
      const at = start + match[0].toLowerCase().indexOf(words[from].toLowerCase());
      added.push({ concept, start: at, end } as Found & { concept: C });
      break;
    }
  }
  for (const match of text.matchAll(ACTION_THERAPY)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    const taken = (item: { start: number; end: number }) => overlaps(item, start, end);
    // A therapy MeSH has a heading of its own for ("thrombolytic therapy") is read as it (decision 254).
    const whole = (mention: Found) => mention.start <= start && mention.end >= end;
    if (mentions.some((mention) => (mention.concept.kind === 'medication' && taken(mention)) || whole(mention)) || added.some(taken)) continue;
    const word = match[1].toLowerCase();
    const concept = named(`${word} agents`, true) ?? named(`${word} drugs`, true);
    if (!concept) continue;
    added.push({ concept, start, end } as Found & { concept: C });
    // "Immunosuppressive or immunomodulatory therapy": an action before it shares the head noun.
    const shared = /\b([a-z][a-z-]{4,})\s*(?:,\s*|\s+)(?:or|and|and\/or)\s+$/i.exec(text.slice(Math.max(0, start - 40), start));
    const other = shared ? (named(`${shared[1].toLowerCase()} agents`, true) ?? named(`${shared[1].toLowerCase()} drugs`, true)) : undefined;
    const otherStart = shared ? start - (text.slice(Math.max(0, start - 40), start).length - shared.index) : 0;
    if (other && !mentions.some((mention) => mention.concept.kind === 'medication' && overlaps(mention, otherStart, start)))
      added.push({ concept: other, start: otherStart, end: otherStart + shared![1].length } as Found & { concept: C });
  }
  if (!added.length) return mentions;
  const kept = mentions.filter((mention) => !added.some((item) => overlaps(mention, item.start, item.end)));
  return [...kept, ...added].sort((a, b) => a.start - b.start || a.end - b.end);
}
