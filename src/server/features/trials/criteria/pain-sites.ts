/**
 * Where a pain score's pain is (decision 350): "VAS leg pain of at least 40/100", "NRS of neck pain above 5", "low back
 * pain intensity under 8". Pain trials rate one region's pain, and a leg pain score says nothing of the back's, so the
 * rule keeps the region in its measure ("leg pain score"), the patient is asked about that pain, and a note's rating is
 * kept with the region it names. A region outside this short list, or two regions in one text, are left unread.
 */

export interface PainSite {
  /** The measure kept in rules and facts: "leg pain score". */
  measure: string;
  /** The region in the patient's words, English and Spanish: "leg" / "pierna". */
  en: string;
  es: string;
  /** The words that named it, so a reader counts them as read. */
  words: string[];
  /** Where "<region> pain" is written, each time. */
  spans: Array<[number, number]>;
}

/** Regions a pain scale is commonly given for, in the words criteria and notes use; each read as one region. */
const REGIONS: Array<{ en: string; es: string; pattern: RegExp }> = [
  // "Back pain" in a criterion is the low back's: "low back", "lower back" and "lumbar" name the same pain.
  { en: 'back', es: 'espalda', pattern: /\b(?:low(?:er)?\s+back|back|lumbar)$/i },
  { en: 'leg', es: 'pierna', pattern: /\b(?:legs?|lower\s+(?:limbs?|extremit(?:y|ies))|sciatic)$/i },
  { en: 'neck', es: 'cuello', pattern: /\b(?:neck|cervical)$/i },
  { en: 'arm', es: 'brazo', pattern: /\b(?:arms?|upper\s+(?:limbs?|extremit(?:y|ies)))$/i },
  { en: 'knee', es: 'rodilla', pattern: /\bknees?$/i },
  { en: 'hip', es: 'cadera', pattern: /\bhips?$/i },
  { en: 'shoulder', es: 'hombro', pattern: /\bshoulders?$/i },
];

const PAIN = /\bpain\b/gi;

type Region = (typeof REGIONS)[number];
/** The one shape every reading of a region answers. */
const siteOf = (region: Region, words: string[], spans: PainSite['spans']): PainSite => ({
  measure: `${region.en} pain score`,
  en: region.en,
  es: region.es,
  words,
  spans,
});
/** Any region's word, then "or", "and", "and/or", a slash or a comma: the pain after it is both regions'. */
const SHARED_PAIN =
  /\b(?:back|lumbar|legs?|limbs?|extremit(?:y|ies)|sciatic|neck|cervical|arms?|knees?|hips?|shoulders?)\s*(?:,|\/|\bor\b|\band(?:\s*\/\s*or)?\b)\s*$/i;

/** The region named right before "pain" at `painStart`, if it is one of the list's. */
function regionBefore(text: string, painStart: number): { region: Region; words: string[]; span: [number, number] } | null {
  const from = Math.max(0, painStart - 30);
  const before = text.slice(from, painStart).replace(/\s+$/, '');
  for (const region of REGIONS) {
    const match = region.pattern.exec(before);
    if (match) return { region, words: match[0].toLowerCase().split(/\s+/), span: [from + match.index, painStart + 'pain'.length] };
  }
  return null;
}

/**
 * The one region every sited "pain" of the text names, or null: none named, or two ("leg or back pain", "neck pain and
 * arm pain"), which one score cannot hold.
 */
export function painSiteOf(text: string): PainSite | null {
  const found = [...text.matchAll(PAIN)].map((match) => regionBefore(text, match.index)).filter((item) => item !== null);
  if (!found.length || found.some((item) => item.region !== found[0].region)) return null;
  // "Neck or arm pain", "back and leg pain": a second region shares the pain.
  if (found.some((item) => SHARED_PAIN.test(text.slice(Math.max(0, item.span[0] - 30), item.span[0])))) return null;
  const words = [...new Set(found.flatMap((item) => item.words))];
  return siteOf(
    found[0].region,
    words,
    found.map((item) => item.span),
  );
}

/**
 * The region of one rating in a note, from `[start, end)`: the "pain" the rating's own words hold ("back pain 3/10",
 * "8/10 leg pain"), else the last one in its sentence before it ("leg pain, VAS 6"), from `sentenceStart`. A note rates
 * several pains one by one, so only the rating's own pain counts.
 */
export function painSiteNear(text: string, sentenceStart: number, start: number, end: number): PainSite | null {
  const windowStart = Math.max(sentenceStart, start - 30);
  const pains = [...text.slice(windowStart, end).matchAll(PAIN)].map((match) => windowStart + match.index);
  const own = pains.find((index) => index >= start) ?? pains.at(-1);
  const found = own === undefined ? null : regionBefore(text, own);
  if (!found || found.span[0] < windowStart) return null;
  return siteOf(found.region, found.words, [found.span]);
}

/** The region of a measure a rule or fact names ("leg pain score"), null for the unsited "pain score" or any other measure. */
export function painSiteOfMeasure(measure: string): PainSite | null {
  const region = REGIONS.find((item) => measure === `${item.en} pain score`);
  return region ? siteOf(region, [region.en], []) : null;
}

/** Whether a measure is a pain score, sited or not. */
export const isPainScore = (measure: string): boolean => measure === 'pain score' || painSiteOfMeasure(measure) !== null;
