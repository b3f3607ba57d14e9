import type { ConceptRef } from '../../../../contract/trials';
import meshTerms from './mesh.json' with { type: 'json' };
import { SYNONYMS, type ConceptKind } from './synonyms';

/**
 * The criteria vocabulary: concepts from MeSH (the terms ClinicalTrials.gov records carry for their
 * conditions and interventions, collected in mesh.json by scripts/build-vocabulary.ts, plus the terms of the
 * record being read) and the maintained synonyms file. Matching is on word boundaries; the longest mention
 * wins, so "type 2 diabetes" is one concept, not "diabetes". docs/decisions/022-criteria-vocabulary.md.
 */

export interface Concept {
  id: string;
  kind: ConceptKind;
  en: string;
  es: string | null;
  mesh?: string;
  icd10?: string;
  clinicianOnly: boolean;
  /** Synonyms (lower case) that name one member of the concept's class (`SynonymEntry.members`). */
  members?: string[];
}

export interface Mention {
  concept: Concept;
  start: number;
  end: number;
}

export interface MeshTerm {
  id: string;
  term: string;
  kind: ConceptKind;
}

/** MeSH headings too broad to name what a criterion is about ("Disease", "Syndrome", "Pathologic Processes"). */
const TOO_BROAD =
  /^(?:disease|syndrome|acute disease|chronic disease|recurrence|pathologic processes|pathological conditions, anatomical|disease attributes|sclerosis|ulcer|fibrosis|prolapse|hernia|suppuration|pain|body weight|wounds and injuries|genomic instability|microsatellite instability|hyperthermia|body temperature changes)$|\b(?:by site|by histologic type|actions|mechanisms|effects of drugs|organic chemicals|compounds|chemicals|amines|alcohols|androstanes|androstenes|androstadienes|ethylamines|ethanolamines|phenethylamines|modulators|agents|hormones, hormone substitutes|molecular|adjuvants)\b/i;

/** "Diabetes Mellitus, Type 2" -> "type 2 diabetes mellitus"; "Kidney Diseases" -> "kidney disease". */
export function meshVariants(term: string): string[] {
  const lower = term.toLowerCase();
  const variants = new Set([lower]);
  const comma = /^([^,]+),\s*([^,]+)$/.exec(lower);
  if (comma) variants.add(`${comma[2]} ${comma[1]}`);
  for (const variant of [...variants]) {
    if (/ies$/.test(variant)) variants.add(variant.replace(/ies$/, 'y'));
    else if (/(?:diseases|disorders|infections|neoplasms|tumors|syndromes|agents|inhibitors)$/.test(variant)) variants.add(variant.replace(/s$/, ''));
  }
  return [...variants].filter((variant) => variant.length >= 4);
}

/**
 * The other grammatical number of a phrase's last word: "disorders" <-> "disorder", "allergies" <-> "allergy".
 * Words that are not plurals although they end in "s" ("diabetes", "sepsis", "herpes", "abscess") are left alone.
 */
export function numberVariants(phrase: string): string[] {
  const match = /^(.*?)([a-z]+)$/i.exec(phrase);
  if (!match) return [];
  const [, head, word] = match;
  const lower = word.toLowerCase();
  if (lower.length < 4) return [];
  if (/ies$/.test(lower)) return [`${head}${word.slice(0, -3)}y`];
  if (/s$/.test(lower)) return NOT_PLURAL.test(lower) ? [] : [`${head}${word.slice(0, -1)}`];
  if (/[^aeiou]y$/.test(lower)) return [`${head}${word.slice(0, -1)}ies`];
  if (/(?:x|ch|sh)$/.test(lower)) return [`${head}${word}es`];
  return [`${head}${word}s`];
}
const NOT_PLURAL = /(?:ss|us|is|ics|ous|ness|betes|pes|aids)$/;

/**
 * The other head nouns a class of disease is written with: "renal disease" is also "renal disorder" and "renal
 * condition", "bleeding disorder" also "bleeding disease". Only for a phrase of one to three words before the head,
 * so a derived phrase names the same thing its written one does (decision 083).
 */
export function headVariants(phrase: string): string[] {
  const match = /^((?:[\w'-]+ ){1,3})(disease|disorder)$/i.exec(phrase);
  if (!match) return [];
  return match[2].toLowerCase() === 'disease' ? [`${match[1]}disorder`, `${match[1]}condition`] : [`${match[1]}disease`];
}

/** Head nouns that a list of words can share ('renal or hepatic impairment'). */
const SHARED_HEAD =
  /^(?:diseases?|disorders?|conditions?|impairments?|insufficiency|failure|infections?|cancers?|surger(?:y|ies)|transplant(?:s|ation)?|dysfunction)$/i;
const SHARED_HEAD_ANYWHERE =
  /\b(?:diseases?|disorders?|conditions?|impairments?|insufficiency|failure|infections?|cancers?|surger(?:y|ies)|transplant(?:s|ation)?|dysfunction)\b/i;

const GENERIC_HEAD = /^(?:infections?|diseases?|disorders?|syndromes?|conditions?)$/i;
const TOKEN = /[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu;

/** Words of a text with their offsets; "Crohn's disease" -> crohn's, disease; "HIV-1" -> HIV, 1. */
function tokenize(text: string): Array<{ word: string; start: number; end: number }> {
  return [...text.matchAll(TOKEN)].map((match) => ({ word: match[0].replace('’', "'"), start: match.index, end: match.index + match[0].length }));
}
const phraseKey = (phrase: string, caseSensitive: boolean) =>
  tokenize(caseSensitive ? phrase : phrase.toLowerCase())
    .map((token) => token.word)
    .join(' ');
const MAX_WORDS = 8;

/**
 * Phrases are looked up by their words (n-grams, longest first), so matching a criterion costs a few map
 * lookups per word whatever the size of the vocabulary.
 */
export class Vocabulary {
  private readonly byPhrase: Map<string, Concept>;
  private readonly byExact: Map<string, Concept>;
  /** Every proper prefix of a phrase (lower case), so the longest match stops as soon as nothing longer can match. */
  private readonly prefixes: Set<string>;

  /** A record's vocabulary looks in its own few terms first, then in the product's (never copied). */
  private readonly parent: Vocabulary | null;

  constructor(mesh: MeshTerm[], parent?: Vocabulary) {
    this.byPhrase = new Map();
    this.byExact = new Map();
    this.prefixes = new Set();
    this.parent = parent ?? null;
    if (parent) {
      for (const item of mesh) this.addMesh(item);
      return;
    }
    const meshByTerm = new Map(mesh.map((item) => [item.term.toLowerCase(), item]));
    const covered = new Set<string>();
    const numbered: Array<[string[], Concept]> = [];
    for (const entry of SYNONYMS) {
      const linked = entry.meshTerm ? meshByTerm.get(entry.meshTerm.toLowerCase()) : undefined;
      const concept: Concept = {
        id: linked ? `mesh:${linked.id}` : `cohortly:${entry.id}`,
        kind: entry.kind,
        en: entry.en,
        es: entry.es,
        ...(linked ? { mesh: linked.id } : {}),
        ...(entry.icd10 ? { icd10: entry.icd10 } : {}),
        clinicianOnly: entry.clinicianOnly ?? false,
        ...(entry.members ? { members: entry.members } : {}),
      };
      if (entry.meshTerm) covered.add(entry.meshTerm.toLowerCase());
      const phrases = [...entry.synonyms, ...(entry.meshTerm ? meshVariants(entry.meshTerm) : [])];
      for (const phrase of phrases) this.add(phrase, false, concept);
      for (const phrase of entry.caseSensitive ?? []) this.add(phrase, true, concept);
      numbered.push([phrases, concept]);
    }
    // Singular and plural of each synonym ("psychiatric disorders", "blood thinner"), after every written
    // synonym, so a written phrase always wins over a derived one.
    for (const [phrases, concept] of numbered) for (const phrase of phrases) for (const variant of numberVariants(phrase)) this.add(variant, false, concept);
    // Then the other head nouns of a class ("renal disorders", "pulmonary conditions"), after every written and numbered phrase.
    for (const [phrases, concept] of numbered)
      for (const phrase of phrases)
        for (const variant of headVariants(phrase)) for (const form of [variant, ...numberVariants(variant)]) this.add(form, false, concept);
    for (const item of mesh) this.addMesh(item, covered);
  }

  /** A MeSH term not already named by the synonyms file becomes a concept of its own. */
  addMesh(item: MeshTerm, covered: Set<string> = new Set()): void {
    if (TOO_BROAD.test(item.term) || covered.has(item.term.toLowerCase())) return;
    const variants = meshVariants(item.term);
    if (variants.some((variant) => this.phrase(phraseKey(variant, false)))) return;
    const name = variants.at(-1) ?? item.term.toLowerCase();
    const concept: Concept = { id: `mesh:${item.id}`, kind: item.kind, en: name, es: null, mesh: item.id, clinicianOnly: false };
    for (const variant of variants) this.add(variant, false, concept);
  }

  private add(phrase: string, caseSensitive: boolean, concept: Concept, own = false) {
    const key = phraseKey(phrase, caseSensitive);
    const map = caseSensitive ? this.byExact : this.byPhrase;
    if (!key || map.has(key) || (!own && (caseSensitive ? this.exact(key) : this.phrase(key)))) return;
    map.set(key, concept);
    const words = key.toLowerCase().split(' ');
    for (let size = 1; size < words.length; size++) this.prefixes.add(words.slice(0, size).join(' '));
  }

  /** A copy with the record's own MeSH terms added (a record's conditions are the concepts it is most about). */
  with(extra: MeshTerm[]): Vocabulary {
    if (!extra.length) return this;
    return new Vocabulary(extra, this);
  }

  /**
   * A copy that reads the trial's own medicines (its interventions, by name) as the study medicine, before the
   * product's concepts: "hypersensitivity to finerenone" in finerenone's trial is an allergy to the study medicine,
   * not to a class the name may belong to (decision 108).
   */
  withStudyMedicines(names: readonly string[]): Vocabulary {
    if (!names.length) return this;
    const copy = new Vocabulary([], this);
    for (const name of names) copy.add(name, false, studyMedicineConcept(name), true);
    return copy;
  }

  private phrase(key: string): Concept | undefined {
    return this.byPhrase.get(key) ?? this.parent?.phrase(key);
  }

  private exact(key: string): Concept | undefined {
    return this.byExact.get(key) ?? this.parent?.exact(key);
  }

  private prefix(key: string): boolean {
    return this.prefixes.has(key) || Boolean(this.parent?.prefix(key));
  }

  /** Every concept named in the text, in order; the longest mention wins where they overlap. */
  find(text: string): Mention[] {
    const tokens = tokenize(text);
    const lower = tokens.map((token) => token.word.toLowerCase());
    const kept: Mention[] = [];
    for (let index = 0; index < tokens.length; ) {
      let found: { concept: Concept; size: number } | null = null;
      let key = '';
      let exact = '';
      const limit = Math.min(MAX_WORDS, tokens.length - index);
      for (let size = 1; size <= limit; size++) {
        key = size === 1 ? lower[index] : `${key} ${lower[index + size - 1]}`;
        exact = size === 1 ? tokens[index].word : `${exact} ${tokens[index + size - 1].word}`;
        const concept = this.phrase(key) ?? this.exact(exact);
        if (concept) found = { concept, size };
        if (!this.prefix(key)) break;
      }
      if (!found) {
        index++;
        continue;
      }
      const mention: Mention = { concept: found.concept, start: tokens[index].start, end: tokens[index + found.size - 1].end };
      const previous = kept.at(-1);
      // "HIV infection", "(HIV) disease": a generic head noun right after a concept belongs to it.
      const generic = GENERIC_HEAD.test(text.slice(mention.start, mention.end)) && previous && /^[\s()/,-]{0,3}$/.test(text.slice(previous.end, mention.start));
      if (!generic) kept.push(mention);
      else previous.end = mention.end;
      const start = index;
      index += found.size;
      // "Hepatitis B or C", "hepatitis B/C": a letter or digit after a conjunction names the sibling concept.
      if (!generic && /^[a-z0-9]$/i.test(tokens[index - 1].word)) {
        const stem = lower.slice(start, index - 1).join(' ');
        for (;;) {
          let next = index;
          if (next < tokens.length && /^(?:or|and)$/i.test(tokens[next].word)) next++;
          const sibling = tokens[next];
          if (
            !sibling ||
            !/^[a-z0-9]$/i.test(sibling.word) ||
            !/^[\s,/&]*(?:(?:or|and)[\s/]*)?(?:or)?\s*$/i.test(text.slice(tokens[index - 1].end, sibling.start))
          )
            break;
          const concept = this.phrase(`${stem} ${sibling.word.toLowerCase()}`);
          if (!concept) break;
          kept.push({ concept, start: sibling.start, end: sibling.end });
          index = next + 1;
        }
      }
    }
    return this.sharedHeads(text, tokens, lower, kept);
  }

  /**
   * "Cardiovascular or liver disease", "renal, hepatic or cardiac impairment", "back and neck surgery": a list
   * of words sharing one head noun names one concept per word that forms a phrase with the head.
   */
  private sharedHeads(text: string, tokens: Array<{ word: string; start: number; end: number }>, lower: string[], kept: Mention[]): Mention[] {
    if (!SHARED_HEAD_ANYWHERE.test(text)) return kept;
    const isCovered = tokens.map((token) => kept.some((mention) => token.start >= mention.start && token.end <= mention.end));
    const conjunction = lower.map((word) => word === 'or' || word === 'and');
    const added: Mention[] = [];
    for (let index = 0; index < tokens.length - 2; index++) {
      if (isCovered[index] || !/^[a-z]{3,}$/i.test(tokens[index].word)) continue;
      // The word must be an item of a list: a comma, a slash or a conjunction right after it.
      if (!conjunction[index + 1] && !/[,/]/.test(text.slice(tokens[index].end, tokens[index + 1].start))) continue;
      // Then single words, each followed by a separator, up to the last one, which the head follows (organ lists run to a dozen).
      let head = -1;
      for (let next = index + 1, items = 0; next < tokens.length && items <= 16; next++) {
        const gap = text.slice(tokens[next - 1].end, tokens[next].start);
        if (!/^[\s,/]*$/.test(gap)) break;
        if (conjunction[next]) continue;
        const following = tokens[next + 1];
        if (!following) break;
        const separated = conjunction[next + 1] || /[,/]/.test(text.slice(tokens[next].end, following.start));
        if (!separated && SHARED_HEAD.test(following.word)) {
          if (!isCovered[next] || kept.some((mention) => mention.start === tokens[next].start && mention.end >= following.end)) head = next + 1;
          break;
        }
        if (!separated || isCovered[next]) break;
        items++;
      }
      if (head < 0) continue;
      const concept = this.phrase(`${lower[index]} ${lower[head]}`);
      if (concept) added.push({ concept, start: tokens[index].start, end: tokens[index].end });
    }
    if (!added.length) return kept;
    return [...kept, ...added].sort((a, b) => a.start - b.start);
  }
}

let shared: Vocabulary | null = null;

/** The product's vocabulary (built once). */
export function vocabulary(): Vocabulary {
  shared ??= new Vocabulary(meshTerms as MeshTerm[]);
  return shared;
}

export function conceptRef(concept: Concept): ConceptRef {
  return { id: concept.id, name: concept.en, ...(concept.mesh ? { mesh: concept.mesh } : {}), ...(concept.icd10 ? { icd10: concept.icd10 } : {}) };
}

/** The id prefix of an allergy to a named medicine: `cohortly:allergy-to:<the medicine's concept id>`. */
export const ALLERGY_PREFIX = 'cohortly:allergy-to:';

/** The id prefix of a trial's own medicine, named as its record names it: `cohortly:study-medicine:<name>` (decision 108). */
export const STUDY_MEDICINE_PREFIX = 'cohortly:study-medicine:';
export function studyMedicineConcept(name: string): Concept {
  return { id: `${STUDY_MEDICINE_PREFIX}${name}`, kind: 'medication', en: name, es: name, clinicianOnly: false };
}

/** The Spanish name of a concept by its id, when the vocabulary has one. */
export function spanishName(conceptId: string): string | null {
  // "An allergy to <medicine>" (decision 107): the medicine's Spanish name.
  if (conceptId.startsWith(ALLERGY_PREFIX)) {
    const medicine = spanishName(conceptId.slice(ALLERGY_PREFIX.length));
    return medicine ? `una alergia a ${medicine}` : null;
  }
  if (conceptId.startsWith(STUDY_MEDICINE_PREFIX)) return studyMedicineConcept(conceptId.slice(STUDY_MEDICINE_PREFIX.length)).es;
  for (const entry of SYNONYMS) if (conceptId === `cohortly:${entry.id}`) return entry.es;
  return SPANISH_BY_MESH.get(conceptId) ?? null;
}

const SPANISH_BY_MESH = new Map<string, string>();
{
  const meshByTerm = new Map((meshTerms as MeshTerm[]).map((item) => [item.term.toLowerCase(), item]));
  for (const entry of SYNONYMS) {
    const linked = entry.meshTerm ? meshByTerm.get(entry.meshTerm.toLowerCase()) : undefined;
    if (linked) SPANISH_BY_MESH.set(`mesh:${linked.id}`, entry.es);
  }
}
