/**
 * Which synonyms of the hand file (src/server/features/trials/vocabulary/synonyms.ts) the MeSH artifact already gives
 * (issue 30): `npx tsx scripts/vocabulary-redundancy.ts [--list]`.
 *
 * A synonym is redundant when the compiled vocabulary (mesh-2024.json.gz) reads its words as the very heading the hand
 * entry stands for, as a synonym (not a narrower concept, not an ambiguous short form), in both reaches of the
 * vocabulary, and that heading reads as this entry (no earlier entry claims it). An entry's first synonym is kept when it is what places the entry in MeSH. Prints
 * the count; `--list` the redundant synonyms by entry.
 */
import { lexicon } from '../src/server/features/trials/vocabulary/lexicon';
import { phraseKey } from '../src/server/features/trials/vocabulary/normalize';
import { CLASS_HEADINGS, SYNONYMS, type SynonymEntry } from '../src/server/features/trials/vocabulary/synonyms';

const lex = lexicon();

/** The heading an entry stands for, as the vocabulary links it (src/server/features/trials/vocabulary/index.ts). */
function headingOf(entry: SynonymEntry): { at: number | undefined; anchoredByFirst: boolean } {
  const linked = entry.meshTerm ? lex.byName(entry.meshTerm) : undefined;
  const classHeading = CLASS_HEADINGS[entry.id];
  if (linked !== undefined || classHeading) return { at: linked ?? lex.byName(classHeading), anchoredByFirst: false };
  return { at: lex.namedBy(phraseKey(entry.synonyms[0] ?? entry.en)), anchoredByFirst: true };
}

/**
 * The reviewed reach (the default of `Vocabulary.find`, used where the reader checks what a criterion leaves unread and
 * by the note tests' labels) reads of the lexicon only a disease's preferred name: a synonym the full reach alone gives
 * is not redundant there.
 */
function readInBothReaches(key: string, at: number): boolean {
  return lex.isPreferred(key) && lex.concepts[at].trees.every((tree) => /^(?:C(?!23)\d\d|F03)/.test(tree));
}

export function redundantSynonyms(): Map<string, string[]> {
  const claimed = new Map<number, string>();
  for (const entry of SYNONYMS) {
    const { at } = headingOf(entry);
    if (at !== undefined && !claimed.has(at)) claimed.set(at, entry.id);
  }
  const found = new Map<string, string[]>();
  for (const entry of SYNONYMS) {
    const { at, anchoredByFirst } = headingOf(entry);
    if (at === undefined || claimed.get(at) !== entry.id) continue;
    const members = new Set(entry.members ?? []);
    const redundant = entry.synonyms.filter((synonym, index) => {
      if ((anchoredByFirst && index === 0) || members.has(synonym.toLowerCase())) return false;
      const key = phraseKey(synonym);
      return lex.term(key) === at && !lex.isNarrower(key) && !lex.ambiguous.has(key) && readInBothReaches(key, at);
    });
    if (redundant.length) found.set(entry.id, redundant);
  }
  return found;
}

if (process.argv[1]?.endsWith('vocabulary-redundancy.ts')) {
  const found = redundantSynonyms();
  const total = SYNONYMS.reduce((sum, entry) => sum + entry.synonyms.length, 0);
  const count = [...found.values()].reduce((sum, list) => sum + list.length, 0);
  console.info(`${SYNONYMS.length} hand entries, ${total} synonyms; ${count} the MeSH artifact already gives, in ${found.size} entries`);
  if (process.argv.includes('--list')) for (const [id, list] of found) console.info(`${id}: ${list.join(' | ')}`);
}
