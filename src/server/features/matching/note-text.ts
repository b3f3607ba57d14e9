/**
 * The note reader's text units (docs/note-extraction.md): a note's sentences with their offsets, and every match
 * of a pattern. Shared by the condition reader (note-extractor.ts), the age and sex reader (note-demographics.ts),
 * the lab and vital reader (note-measures.ts) and the LLM judge's excerpts; and the family-history sections.
 */

export interface Sentence {
  start: number;
  end: number;
  text: string;
}

/** Words that end with a full stop without ending the sentence ("Dr. Lee", "approx. 5", "vs. fibroid"). */
const ABBREVIATION =
  /\b(?:dr|mr|mrs|ms|mx|st|vs|etc|e\.g|i\.e|approx|jr|sr|prof|no|nos|fig|pt|pts|hx|dx|tx|sx|rx|yo|y\.o|a\.m|p\.m|b\.i\.d|t\.i\.d|q\.i\.d|q\.d|p\.o|i\.v|inc|wk|wks|yr|yrs|mo|mos|min|hrs?|ca)$/i;

/**
 * Sentences with their offsets in the note. A full stop ends a sentence only before whitespace, not after an
 * abbreviation nor after an initial followed by a word in lower case, so "39.5 C", "Dr. Lee", "C. diff" and
 * "s/p" stay inside theirs. A line break ends a sentence (notes list problems one per line) unless the next
 * line carries on in lower case (a wrapped line).
 */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  let from = 0;
  const push = (end: number) => {
    const raw = text.slice(from, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (/[\p{L}\p{N}]/u.test(trimmed)) sentences.push({ start: from + lead, end: from + lead + trimmed.length, text: trimmed });
  };
  const boundary = /[.!?]+(?=\s|$)|\n/g;
  for (let found = boundary.exec(text); found; found = boundary.exec(text)) {
    const at = found.index;
    const after = at + found[0].length;
    const next = /\S/.exec(text.slice(after));
    const nextChar = next ? next[0] : '';
    if (found[0] === '\n') {
      const blankLine = /^[ \t]*\n/.test(text.slice(after));
      if (!blankLine && /\p{Ll}/u.test(nextChar) && !/:\s*$/.test(text.slice(from, at))) continue;
      push(at);
      from = after;
      continue;
    }
    // "? pneumonia": a question mark before a word in lower case marks doubt, not the end of a question.
    if (!found[0].startsWith('.') && /\p{Ll}/u.test(nextChar)) continue;
    if (found[0].startsWith('.')) {
      const before = text.slice(Math.max(from, at - 8), at);
      if (ABBREVIATION.test(before)) continue;
      // "C. diff", "E. coli": an initial before a word in lower case.
      if (/(?:^|[^\p{L}])\p{L}$/u.test(before) && /\p{Ll}/u.test(nextChar)) continue;
    }
    push(after);
    from = after;
  }
  push(text.length);
  return sentences;
}

/** Every match of a global pattern. Not `matchAll`, which copies the pattern on each call: this runs per note for dozens of patterns. */
export function* matches(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0] === '') pattern.lastIndex++;
    yield match;
  }
}

/**
 * "Family History:" alone on its line: the lines under it, up to a blank line or the next heading, are a
 * relative's. A "Past Medical History:" list is not carried the same way: it lists chronic conditions the
 * patient still has (COPD, hypertension), and the matcher reads `history` as "not now".
 */
export type Section = 'family';
const SECTION_HEADING = /^[ \t]*(family (?:medical )?(?:history|hx)|fhx?|fh)[ \t]*:?[ \t]*$/i;
const ANY_HEADING = /^[ \t]*[\p{L}][\p{L} /&'-]{1,40}:[ \t]*$/u;

/** The family-history sections of a note, as offset ranges. */
export function readSections(text: string): Array<{ start: number; end: number; section: Section }> {
  const sections: Array<{ start: number; end: number; section: Section }> = [];
  let open: { start: number; section: Section } | null = null;
  let offset = 0;
  for (const line of text.split('\n')) {
    const heading = SECTION_HEADING.exec(line);
    if (open && (heading || ANY_HEADING.test(line) || !line.trim())) {
      sections.push({ ...open, end: offset });
      open = null;
    }
    if (heading) open = { start: offset + line.length, section: 'family' };
    offset += line.length + 1;
  }
  if (open) sections.push({ ...open, end: text.length });
  return sections;
}

/** One measured value, at [start, end) in the note. */
export interface MeasureReading {
  name: string;
  value: number;
  unit: string | null;
  start: number;
  end: number;
}
