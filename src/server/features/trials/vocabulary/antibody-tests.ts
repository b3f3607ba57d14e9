/**
 * An antibody to a virus, named as what a test finds ("hepatitis C antibody positive", "anti-HCV", "HIV-1/2 antibodies",
 * "hepatitis B core antibody", "anti-HBc"), is the infection, ever (decision 376): the antibody stays after a cured or
 * cleared infection, so "HCV antibody positive" is "has ever had hepatitis C", never "has hepatitis C now". HIV's
 * antibody is HIV itself, which does not clear. Hepatitis B's antibody is read only as its core antibody: the surface
 * antibody (anti-HBs) is what a vaccine gives, and "hepatitis B antibodies" may be either.
 */

/** A mention as the recognizer keeps it (its `Mention`, whose module imports this one). */
interface Mention {
  concept: { id: string; en: string };
  start: number;
  end: number;
  byAntibody?: true;
}
/** The vocabulary, by what this reading asks of it. */
interface Vocabulary<M extends Mention> {
  concept(conceptId: string): M['concept'] | undefined;
}

const HEPATITIS_C = 'cohortly:hepatitis-c';
const HEPATITIS_B = 'cohortly:hepatitis-b';
const HIV = 'cohortly:hiv';

/** MeSH's headings of antibodies to a virus, by the infection they show. */
const INFECTION_OF_ANTIBODY: Record<string, string> = {
  'mesh:D018937': HEPATITIS_C,
  'mesh:D015483': HIV,
};
const GENERIC_ANTIBODY = 'mesh:D000906';

/** The antibody's words after the infection's name: "HCV antibody", "hepatitis C virus antibodies", "HIV-1/2 Ab". */
const ANTIBODY_AFTER =
  /^[\s-]*(?:\/\s*\d\s+|\d(?:\s*\/\s*\d)?\s+)?(?:virus\s+)?(?:antibod(?:y|ies)|abs?\b)(?:\s*\((?:anti-?\s*)?[a-z]{2,5}\s*(?:-?\s*ab)?\))?/i;
/** Hepatitis B's core antibody only. */
const CORE_ANTIBODY_AFTER = /^[\s-]*(?:virus\s+)?core\s+(?:antibod(?:y|ies)|abs?\b)(?:\s*\((?:anti-?\s*hbc|hbcab|hbc\s*ab)\))?/i;
const ANTI_BEFORE = /\banti[\s-]*$/i;
/** "Antibodies to hepatitis C", "antibody against HIV": the antibody's words before the infection's name. */
const ANTIBODY_BEFORE = /\b(?:antibod(?:y|ies)|abs?)\s+(?:to|against)\s+(?:the\s+)?$/i;
/** The short forms of hepatitis B's core antibody, which the vocabulary does not name. */
const CORE_ANTIBODY_SHORT = /\banti-?\s*hbc\b(?:\s+antibod(?:y|ies))?|\bhbc\s*-?\s*ab\b|\bhbc\s+antibod(?:y|ies)\b/gi;
/**
 * An antibody given as a treatment ("anti-HIV antibody infusion") and a medicine against the virus ("anti-HCV drugs",
 * "anti-HIV medication") are medicines, never a test's finding.
 */
const GIVEN_AFTER =
  /^[\s-]*(?:therap|treatment|infusion|administ|product|dos(?:e|ing)|injection|drugs?\b|medications?|medicines?|agents?|regimens?|daas?\b|direct[- ]acting)/i;

/** Mentions of an antibody to a virus read as the infection they show; `byAntibody` marks them. */
export function readAntibodyTests<M extends Mention>(vocab: Vocabulary<M>, text: string, found: M[]): void {
  if (!/antibod|\bab\b|anti|hbc/i.test(text)) return;
  for (const mention of [...found]) {
    if (GIVEN_AFTER.test(text.slice(mention.end, mention.end + 20))) continue;
    const infection = INFECTION_OF_ANTIBODY[mention.concept.id];
    if (infection) {
      mark(vocab, text, found, mention, infection, mention.end);
      continue;
    }
    const id = mention.concept.id;
    if (id !== HEPATITIS_C && id !== HIV && id !== HEPATITIS_B) continue;
    const after = (id === HEPATITIS_B ? CORE_ANTIBODY_AFTER : ANTIBODY_AFTER).exec(text.slice(mention.end));
    const before =
      id === HEPATITIS_B
        ? null
        : (ANTI_BEFORE.exec(text.slice(Math.max(0, mention.start - 6), mention.start)) ??
          ANTIBODY_BEFORE.exec(text.slice(Math.max(0, mention.start - 30), mention.start)));
    if (after || before) mark(vocab, text, found, mention, id, mention.end + (after?.[0].length ?? 0), before?.[0].length ?? 0);
  }
  for (const short of text.matchAll(CORE_ANTIBODY_SHORT)) {
    const start = short.index;
    const end = start + short[0].length;
    if (found.some((mention) => mention.start < end && mention.end > start && mention.concept.id !== GENERIC_ANTIBODY)) continue;
    const concept = vocab.concept(HEPATITIS_B);
    if (!concept) continue;
    dropInside(found, start, end);
    found.push({ concept, start, end, byAntibody: true } as M);
  }
  found.sort((a, b) => a.start - b.start);
}

/** The mention becomes the infection, over "anti-" before it and the antibody's words after it. */
function mark<M extends Mention>(vocab: Vocabulary<M>, text: string, found: M[], mention: M, infection: string, end: number, before?: number): void {
  const concept = vocab.concept(infection);
  if (!concept) return;
  mention.concept = concept;
  mention.start -= before ?? ANTI_BEFORE.exec(text.slice(Math.max(0, mention.start - 6), mention.start))?.[0].length ?? 0;
  mention.end = end;
  mention.byAntibody = true;
  dropInside(found, mention.start, mention.end, mention);
}

/** Another mention inside the span ("antibody" of the generic heading) is the same words. */
function dropInside<M extends Mention>(found: M[], start: number, end: number, keep?: M): void {
  for (let index = found.length - 1; index >= 0; index--) {
    const other = found[index];
    if (other !== keep && other.start >= start && other.end <= end) found.splice(index, 1);
  }
}

/** The infections a positive antibody shows ever, not now: all but HIV's. */
export const everByAntibody = (mention: Mention) => mention.byAntibody === true && mention.concept.id !== HIV;
/** An infection whose antibody is the infection now, for as long as the person lives. */
export const isLifelongInfection = (mention: Mention) => mention.concept.id === HIV;

/**
 * Infections a person knows a test of: a positive test ("tested positive for HIV", "HBsAg positive") or an antibody read
 * as its infection is the infection (decisions 110, 278, 376).
 */
export const knownByTest = (mention: Mention) => /^(?:HIV|hepatitis B|COVID-19)$/.test(mention.concept.en) || mention.byAntibody === true;

/** The text names an antibody no mention reads as the infection it shows ("anti-HBs", "hepatitis B antibodies"). */
export function unreadAntibody(text: string, mentions: readonly Mention[]): boolean {
  let rest = text;
  for (const mention of mentions)
    if (mention.byAntibody) rest = rest.slice(0, mention.start) + ' '.repeat(mention.end - mention.start) + rest.slice(mention.end);
  return /\banti|antibod/i.test(rest);
}
