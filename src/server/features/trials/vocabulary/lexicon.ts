import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { phraseKey, wordOrders } from './normalize';

/**
 * The compiled MeSH 2024 + ICD-10-CM vocabulary (mesh-2024.json.gz, built by scripts/build-vocabulary.ts;
 * NOTICE.md beside it; decision 126), loaded once per process on first use. Terms are looked up by their
 * normalised key (normalize.ts); the hierarchy is MeSH's tree numbers, drug classes its pharmacological actions.
 */

export interface MeshConcept {
  ui: string;
  name: string;
  kind: 'condition' | 'medication';
  trees: string[];
  /** The concept indexes of its pharmacological actions (drug classes). */
  actions: number[];
  /** ICD-10-CM codes whose description names exactly this concept (decision 126). */
  icd10: string[];
}

interface Artifact {
  meta: { mesh: string; icd10cm: string; counts: Record<string, number> };
  concepts: Array<[string, string, 'c' | 'm', string, string, string]>;
  terms: string;
  exact: string;
  ambiguous: string[];
  /** Eponym words, and the headings (UIs) MeSH tags as eponyms where they keep their capital (decision 294). */
  eponyms: { words: string[]; headings: string[] };
}

export class Lexicon {
  readonly concepts: MeshConcept[];
  readonly meta: Artifact['meta'];
  private readonly byUi = new Map<string, number>();
  private readonly terms = new Map<string, number>();
  private readonly exactTerms = new Map<string, number[]>();
  /** The most words a term starting with a word has: the longest match looks no further. */
  private readonly longest = new Map<string, number>();
  readonly ambiguous: Set<string>;
  readonly eponymWords: ReadonlySet<string>;
  private readonly eponymHeadings: ReadonlySet<string>;
  /** Keys that are a heading's preferred name (the reviewed reach reads only these). */
  private readonly preferred = new Set<string>();
  /** Condition keys only a heading's non-preferred concepts name: a narrower or related kind, not a synonym (decision 140). */
  private readonly narrower = new Set<string>();
  /** Keys the build wrote with the other word of a pair MeSH uses ("renal calculus"; decision 216). */
  private readonly paired = new Set<string>();
  private treeIndex: Map<string, number> | null = null;
  private nameIndex: Map<string, number> | null = null;

  constructor(artifact: Artifact) {
    this.meta = artifact.meta;
    this.concepts = artifact.concepts.map(([ui, name, kind, trees, actions, icd10], at) => {
      this.byUi.set(ui, at);
      return {
        ui,
        name,
        kind: kind === 'm' ? 'medication' : 'condition',
        trees: trees ? trees.split('|') : [],
        actions: actions ? actions.split(',').map(Number) : [],
        icd10: icd10 ? icd10.split(',') : [],
      };
    });
    for (const line of artifact.terms.split('\n')) {
      const tab = line.indexOf('\t');
      const key = line.slice(0, tab);
      // Marks after the heading's index: "*" its preferred name, "~" a narrower kind, "+" written with a paired word.
      const paired = line.endsWith('+');
      const marked = paired ? line.slice(0, -1) : line;
      const preferred = marked.endsWith('*');
      const narrower = marked.endsWith('~');
      this.terms.set(key, Number(marked.slice(tab + 1, preferred || narrower ? -1 : undefined)));
      if (preferred) this.preferred.add(key);
      if (narrower) this.narrower.add(key);
      if (paired) this.paired.add(key);
      this.noteLength(key.toLowerCase());
    }
    for (const line of artifact.exact.split('\n')) {
      const tab = line.indexOf('\t');
      const key = line.slice(0, tab);
      this.exactTerms.set(
        key,
        line
          .slice(tab + 1)
          .split(',')
          .map(Number),
      );
      this.noteLength(key.toLowerCase());
    }
    this.ambiguous = new Set(artifact.ambiguous);
    this.eponymWords = new Set(artifact.eponyms.words);
    this.eponymHeadings = new Set(artifact.eponyms.headings);
  }

  /** A heading named after a person ("Hodgkin Disease"): its eponyms keep their capital in its plain name. */
  isEponymHeading(ui: string): boolean {
    return this.eponymHeadings.has(ui);
  }

  private noteLength(key: string) {
    const space = key.indexOf(' ');
    const first = space < 0 ? key : key.slice(0, space);
    let words = 1;
    for (let at = key.indexOf(' '); at >= 0; at = key.indexOf(' ', at + 1)) words++;
    if ((this.longest.get(first) ?? 0) < words) this.longest.set(first, words);
  }

  /** How many words a term starting with this word (its key, or as written in lower case) may have; 0: none starts with it. */
  maxWords(firstKey: string, firstLower: string): number {
    return Math.max(this.longest.get(firstKey) ?? 0, this.longest.get(firstLower) ?? 0);
  }

  /** A heading by its preferred name (any case). */
  byName(name: string): number | undefined {
    this.nameIndex ??= new Map(this.concepts.map((concept, at) => [concept.name.toLowerCase(), at]));
    return this.nameIndex.get(name.toLowerCase());
  }

  /** The heading whose preferred name (in any of its word orders) has this key, if one has. */
  namedBy(key: string): number | undefined {
    const at = this.terms.get(key);
    return at !== undefined && wordOrders(this.concepts[at].name).some((order) => phraseKey(order) === key) ? at : undefined;
  }

  hasUi(ui: string): boolean {
    return this.byUi.has(ui);
  }

  term(key: string): number | undefined {
    return this.terms.get(key);
  }

  isPreferred(key: string): boolean {
    return this.preferred.has(key);
  }

  /** The key names a narrower or related kind of its heading (MeSH's other concepts), not a synonym. */
  isNarrower(key: string): boolean {
    return this.narrower.has(key);
  }

  /** The key is a heading's name written with the other word of a pair ("heart problem", "renal calculus"), not MeSH's own. */
  isPaired(key: string): boolean {
    return this.paired.has(key);
  }

  exact(key: string): number[] | undefined {
    return this.exactTerms.get(key);
  }

  byId(conceptId: string): number | undefined {
    const ui = conceptId.startsWith('mesh:') ? conceptId.slice(5) : conceptId;
    return this.byUi.get(canonicalMeshUi(ui));
  }

  /** `a` is `b` or under it in the MeSH tree ("NSCLC" is a neoplasm, "NSTEMI" a myocardial infarction). */
  isA(a: number, b: number): boolean {
    if (a === b) return true;
    const under = this.concepts[b].trees;
    return this.concepts[a].trees.some((tree) => under.some((ancestor) => tree.startsWith(`${ancestor}.`)));
  }

  /** Every concept above this one in the tree (its ancestors in every branch it sits in). */
  ancestors(at: number): number[] {
    this.treeIndex ??= new Map(this.concepts.flatMap((concept, index) => concept.trees.map((tree) => [tree, index] as [string, number])));
    const found = new Set<number>();
    for (const tree of this.concepts[at].trees)
      for (let cut = tree.lastIndexOf('.'); cut > 0; cut = tree.lastIndexOf('.', cut - 1)) {
        const ancestor = this.treeIndex.get(tree.slice(0, cut));
        if (ancestor !== undefined) found.add(ancestor);
      }
    return [...found];
  }

  /** A drug is in a class when it is the class, sits under it, or one of its pharmacological actions is or sits under it. */
  inClass(drug: number, drugClass: number): boolean {
    if (this.isA(drug, drugClass)) return true;
    return this.concepts[drug].actions.some((action) => this.isA(action, drugClass));
  }

  /** Two concepts are related when one is under the other or they share a branch two levels deep ("C14.280": heart diseases). */
  related(a: number, b: number): boolean {
    if (this.isA(a, b) || this.isA(b, a)) return true;
    const branches = new Set(this.concepts[a].trees.map(branchOf).filter(Boolean));
    return this.concepts[b].trees.some((tree) => branches.has(branchOf(tree)));
  }
}

/** A tree number's branch two levels deep: "C14.280.647.500" -> "C14.280". */
const branchOf = (tree: string) => {
  const parts = tree.split('.');
  return parts.length >= 2 ? `${parts[0]}.${parts[1]}` : '';
};

/**
 * ClinicalTrials.gov writes older descriptor ids zero-padded to nine digits ("D000000208" for D000208); MeSH's own
 * forms are D + 6 digits or D + 9 digits.
 */
export function canonicalMeshUi(ui: string): string {
  const padded = /^D000(\d{6})$/.exec(ui);
  return padded && !lexicon().hasUi(ui) && lexicon().hasUi(`D${padded[1]}`) ? `D${padded[1]}` : ui;
}

const ARTIFACT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'mesh-2024.json.gz');
let loaded: Lexicon | null = null;

/** The vocabulary, read and indexed on first use (once per process). */
export function lexicon(): Lexicon {
  loaded ??= new Lexicon(JSON.parse(gunzipSync(readFileSync(ARTIFACT)).toString('utf8')) as Artifact);
  return loaded;
}
