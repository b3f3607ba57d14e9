import type { ConceptRef } from '../../../../contract/trials';
import { canonicalMeshUi, lexicon } from './lexicon';
import { capitalisedShortForm, shortFormOfPlural } from './lower-case';
import { isActionClass, withClassForms } from './medicine-class-forms';
import { stemClassName, withNamedMedicines } from './named-medicines';
import { ALLERGY_PREFIX, STUDY_MEDICINE_PREFIX } from './product-concepts';
export { type AnalyteMention, findAnalytes } from './analytes';
export { namedAsMeasured } from './measured-substances';
export { everByAntibody, readAntibodyTests } from './antibody-tests';
export { NAMED_MEDICINE_PREFIX } from './named-medicines';
export { plainName, withoutExample } from './plain-name';
import { plainName } from './plain-name';
import { relatedReading } from './related-terms';
import { conditionSystems, inSystems, operatedSystems, treatedSystems } from './short-form-support';
export { ALLERGY_PREFIX, STUDY_MEDICINE_PREFIX } from './product-concepts';
import { phraseKey as normalisedKey, standardSpelling, tokenize as tokenizeWords, type Token } from './normalize';
import { AMBIGUOUS_SHORT_FORMS, CLINICAL_SHORT_FORMS } from './hand/clinical-short-forms';
import { LOWERING_CLASSES, loweringPhrases } from './hand/lowering-classes';
import { benignUnderCancer } from './benign-tumours';
import { CLINICAL_BROADER } from './clinical-broader';
import { derivedMembers } from './hand-members';
import { impairedFunction } from './impaired-function';
import { turnOf } from './reversed';
import { withSharedHeads, withSharedLeadWord } from './shared-heads';
import { CLASS_HEADINGS, SYNONYMS, type ConceptKind } from './synonyms';

/**
 * The clinical vocabulary and its concept recognizer: MeSH 2024 and ICD-10-CM compiled into mesh-2024.json.gz
 * (lexicon.ts, decision 126), the reviewed hand file (synonyms.ts: plain English and Spanish names, lay terms,
 * trial idioms) and the terms of the record being read. Matching is on normalised words (normalize.ts); the
 * longest mention wins, so "type 2 diabetes" is one concept, not "diabetes"; an ambiguous short form is read
 * only with support from its context (decision 127). docs/decisions/022-criteria-vocabulary.md.
 */

export interface Concept {
  id: string;
  kind: ConceptKind;
  en: string;
  es: string | null;
  mesh?: string;
  icd10?: string;
  clinicianOnly: boolean;
  /** A trial idiom read in eligibility criteria only (`FindOptions.trialIdioms`). */
  criteriaOnly?: true;
  /** Synonyms (lower case) that name one member of the concept's class (`SynonymEntry.members`). */
  members?: string[];
  /** The MeSH descriptor the concept is, or (for a hand concept with an id of its own) names: its place in the hierarchy. */
  descriptor?: string;
  /** Every ICD-10-CM code the concept maps to with certainty (decision 126). */
  icd10Codes?: readonly string[];
}

export interface FindOptions {
  /**
   * `full`: every MeSH term of the lexicon besides the reviewed hand entries and the record's own terms (the note
   * reader, FHIR and import columns, chat and call answers). `reviewed` (the default, the criteria reader until it
   * moves to `full`): the hand entries and the record's terms only, with MeSH ids, codes and hierarchy from the
   * lexicon (decision 127).
   */
  reach?: 'full' | 'reviewed';
  /**
   * Concept ids the text is known to be about (a trial's conditions): an ambiguous short form ("MS", "PE") is read
   * when it names one of them or a concept related to one in the hierarchy.
   */
  context?: readonly string[];
  /** Read the hand file's trial idioms (`criteriaOnly`: "previous operations"): the criteria reader only (decision 140). */
  trialIdioms?: boolean;
}

export interface Mention {
  concept: Concept;
  start: number;
  end: number;
  /**
   * Read through a MeSH term of a narrower or related kind than the heading ("usual interstitial pneumonia" of
   * idiopathic pulmonary fibrosis): the concept is broader than the words (decision 140). Absent for synonyms.
   */
  narrower?: true;
  /** Read from an antibody a test finds: the infection it shows, ever (decision 376, criteria/antibody-tests.ts). */
  byAntibody?: true;
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

/** Whether the word after `last` goes on with the same phrase: a word right after it, not a conjunction or a preposition. */
const PHRASE_BREAK =
  /^(?:or|and|nor|with|without|in|of|on|at|for|to|as|by|due|who|that|which|within|during|after|before|since|is|are|was|were|has|have|had|not|requiring|including|except|etc|e|i|eg|ie)$/i;
function continuesPhrase(text: string, tokens: ReturnType<typeof tokenize>, last: number): boolean {
  const next = tokens[last + 1];
  return Boolean(next) && /^\s+$/.test(text.slice(tokens[last].end, next.start)) && /^[a-z]/i.test(next.word) && !PHRASE_BREAK.test(next.word);
}

const GENERIC_HEAD = /^(?:infections?|diseases?|disorders?|syndromes?|conditions?)$/i;
/** MeSH's Virus Diseases, and the words that name one again after a virus ("C virus infection" of "hepatitis B or C"). */
const VIRUS_DISEASES = 'mesh:D014777';
const VIRUS_HEAD = /^vir(?:us|al)\s+(?:infections?|diseases?)$/i;

/** A heading read in notes, not in criteria, where metastases are a clinician's staging the judgement reader checks (decision 255). */
const NOT_IN_CRITERIA = /^Neoplasm Metastasis$/;

/** Words of an allergy "to" what it is to: "allergy to eggs" is MeSH's "egg hypersensitivity" (decision 332). */
const ALLERGY_HEAD = /^(?:allerg(?:y|ies)|hypersensitivit(?:y|ies))$/i;

/** Head nouns (keys) that name a condition or operation of a place: "disease of the liver", "fracture of the hip". */
const PLACE_HEAD =
  /^(?:disease|disorder|cancer|carcinoma|tumor|neoplasm|infection|fracture|stenosis|failure|insufficiency|injury|ulcer|abscess|inflammation|surgery|transplant|transplantation|dysfunction|impairment|problem)$/;

/**
 * The hand entries whose rules and facts were stored under a MeSH id before the lexicon (the id as the records'
 * MeSH terms wrote it then): they keep it, and every other hand entry keeps `cohortly:<id>`, its heading in
 * `descriptor`, so no stored rule or fact changes meaning (decision 127).
 */
// biome-ignore format: a table
const STORED_MESH_IDS: Record<string, string> = { 'type-2-diabetes': 'D000003924', 'diabetes': 'D000003920', 'obesity': 'D000009765', 'hypertension': 'D000006973', 'cardiovascular-disease': 'D000002318', 'pah': 'D000081029', 'asthma': 'D001249', 'pneumonia': 'D000011014', 'covid-19': 'D000086382', 'rsv': 'D000018357', 'respiratory-infection': 'D000012141', 'urinary-tract-infection': 'D000014552', 'infection': 'D000007239', 'chronic-kidney-disease': 'D000051436', 'nephrotic-syndrome': 'D000009404', 'liver-disease': 'D000008107', 'nash': 'D000065626', 'ulcerative-colitis': 'D000003093', 'ibd': 'D000015212', 'cancer': 'D000009369', 'sclc': 'D000055752', 'lung-cancer': 'D000008175', 'colorectal-cancer': 'D000015179', 'hepatocellular-carcinoma': 'D000006528', 'multiple-myeloma': 'D000009101', 'thymoma': 'D000013945', 'autoimmune-disease': 'D000001327', 'lupus': 'D000008180', 'systemic-sclerosis': 'D000012595', 'atopic-dermatitis': 'D000003876', 'hidradenitis-suppurativa': 'D000017497', 'allergy': 'D006967', 'disc-herniation': 'D007405', 'sciatica': 'D012585', 'radiculopathy': 'D011843', 'spinal-stenosis': 'D013130', 'back-pain': 'D017116', 'migraine': 'D000008881', 'anxiety': 'D001008', 'psychiatric-disorder': 'D001523', 'bleeding-disorder': 'D000006474', 'neurological-disease': 'D009422', 'systemic-corticosteroids': 'D005938', 'jak-inhibitors': 'D000075242', 'immunotherapy': 'D000082082', 'antibiotics': 'D000000900', 'nsaids': 'D000894', 'lung-disease': 'D008171', 'respiratory-disease': 'D012140', 'endocrine-disease': 'D000004700', 'metabolic-disease': 'D000008659', 'blood-disease': 'D000006402', 'digestive-disease': 'D000005767', 'musculoskeletal-disease': 'D009140', 'skin-disease': 'D000012871', 'immune-disease': 'D007154', 'local-anesthetics': 'D000779' };

function tokenize(text: string): Token[] {
  return tokenizeWords(text);
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
  /** MeSH concepts (by lexicon index) that a hand entry names: the hand entry's concept stands for them. */
  private readonly linked = new Map<number, Concept>();
  private readonly handConcepts = new Map<string, Concept>();
  private readonly meshConcepts = new Map<number, Concept>();
  private byIcd10: Map<string, number> | null = null;
  private readonly ownRecordConcepts: string[] = [];

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
    const lex = lexicon();
    const numbered: Array<[string[], Concept]> = [];
    for (const entry of SYNONYMS) {
      const linked = entry.meshTerm ? lex.byName(entry.meshTerm) : undefined;
      // A hand concept of its own still names a place in the hierarchy when its first synonym is a heading's name.
      const classHeading = CLASS_HEADINGS[entry.id];
      const named = linked ?? (classHeading ? lex.byName(classHeading) : lex.namedBy(normalisedKey(entry.synonyms[0] ?? entry.en)));
      const stored = STORED_MESH_IDS[entry.id];
      const ui = stored;
      const codes = named !== undefined ? lex.concepts[named].icd10 : [];
      const concept: Concept = {
        id: ui ? `mesh:${ui}` : `cohortly:${entry.id}`,
        kind: entry.kind,
        en: entry.en,
        es: entry.es,
        ...(ui ? { mesh: ui } : {}),
        ...(entry.icd10 ? { icd10: entry.icd10 } : {}),
        clinicianOnly: entry.clinicianOnly ?? false,
        ...(entry.criteriaOnly ? { criteriaOnly: true as const } : {}),
        ...(entry.members || derivedMembers(entry, named).length ? { members: [...(entry.members ?? []), ...derivedMembers(entry, named)] } : {}),
        ...(named !== undefined ? { descriptor: lex.concepts[named].ui } : {}),
        ...(entry.icd10 || codes.length ? { icd10Codes: entry.icd10 ? [entry.icd10, ...codes.filter((code) => code !== entry.icd10)] : codes } : {}),
      };
      // The heading's own terms (MeSH's synonyms of it) then read as the hand concept, under one id.
      if (named !== undefined && !this.linked.has(named)) this.linked.set(named, concept);
      // A medicine the hand entry names by its heading's name ("fluticasone" of the inhaled corticosteroids) reads as
      // the entry by its brand and other names too ("Flovent"), as the hand file reads the medicine itself.
      if (entry.kind === 'medication')
        for (const synonym of entry.synonyms) {
          const drug = lex.namedBy(normalisedKey(synonym));
          if (drug !== undefined && lex.concepts[drug].kind === 'medication' && !this.linked.has(drug)) this.linked.set(drug, concept);
        }
      if (!this.handConcepts.has(concept.id)) this.handConcepts.set(concept.id, concept);
      // Rules stored before the entry named its heading keep its own id: both find it.
      if (!this.handConcepts.has(`cohortly:${entry.id}`)) this.handConcepts.set(`cohortly:${entry.id}`, concept);
      // "Borderline personality disorder", "Graves disease", "latent tuberculosis", "oligodendroglioma": a condition
      // synonym of a hand entry that is the name of a MeSH heading under the entry's own is read as that heading, which
      // names the kind the words say; the class still holds it by the tree (`isA`). Decision 295 did this for tumours,
      // decision 346 for every condition. Not an entry term ("hemophilia" is one of Hemophilia A's), narrower than
      // written, nor a course or severity (`derivedMembers`); nor the allergy entry's reaction word: "anaphylaxis to
      // penicillin" is an allergy to penicillin.
      const ownHeading = (synonym: string) =>
        entry.kind === 'condition' &&
        entry.id !== 'allergy' &&
        lex.isPreferred(normalisedKey(synonym)) &&
        derivedMembers(entry, named).includes(synonym.toLowerCase());
      const phrases = [...entry.synonyms.filter((synonym) => !ownHeading(synonym)), ...(entry.meshTerm ? meshVariants(entry.meshTerm) : [])];
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
    // "CABG", "TKA", "TNBC": short forms MeSH lacks, read as the heading they stand for (decision 309).
    for (const { form, heading } of CLINICAL_SHORT_FORMS) {
      const at = lex.byName(heading);
      if (at !== undefined) this.add(form, true, this.meshConcept(at));
    }
    // "Glucose-lowering medication", "lipid-lowering therapy": a class named by what it lowers (decision 371).
    for (const lowering of LOWERING_CLASSES) {
      const at = lex.byName(lowering.heading);
      if (at !== undefined) for (const phrase of loweringPhrases(lowering)) this.add(phrase, false, this.meshConcept(at));
    }
  }

  /** A MeSH term not already named by the synonyms file becomes a concept of its own. */
  addMesh(item: MeshTerm, covered: Set<string> = new Set()): void {
    if (TOO_BROAD.test(item.term) || covered.has(item.term.toLowerCase())) return;
    const variants = meshVariants(item.term);
    const known = variants.map((variant) => this.phrase(phraseKey(variant, false))).find(Boolean);
    if (known) {
      this.ownRecordConcepts.push(known.id);
      return;
    }
    const ui = canonicalMeshUi(item.id);
    const at = lexicon().byId(ui);
    const name = variants.at(-1) ?? item.term.toLowerCase();
    const concept: Concept =
      at !== undefined
        ? this.root().meshConcept(at)
        : { id: `mesh:${ui}`, kind: item.kind, en: name, es: null, mesh: ui, descriptor: ui, clinicianOnly: false };
    for (const variant of variants) this.add(variant, false, concept);
    this.ownRecordConcepts.push(concept.id);
  }

  /** The concepts of the record's own MeSH terms (its conditions and interventions): the context of its criteria. */
  private recordConcepts(): string[] {
    return [...this.ownRecordConcepts, ...(this.parent?.recordConcepts() ?? [])];
  }

  private root(): Vocabulary {
    return this.parent ? this.parent.root() : this;
  }

  /** The concept of a MeSH heading: its hand entry's when one names it, else its plain name from MeSH (`es` none). */
  meshConcept(at: number): Concept {
    const root = this.root();
    const hand = root.linked.get(at);
    if (hand) return hand;
    let concept = root.meshConcepts.get(at);
    if (!concept) {
      const mesh = lexicon().concepts[at];
      concept = {
        id: `mesh:${mesh.ui}`,
        kind: mesh.kind,
        en: plainName(mesh.name, lexicon().isEponymHeading(mesh.ui) ? lexicon().eponymWords : undefined),
        es: null,
        mesh: mesh.ui,
        ...(mesh.icd10.length ? { icd10: mesh.icd10[0], icd10Codes: mesh.icd10 } : {}),
        clinicianOnly: false,
        descriptor: mesh.ui,
      };
      root.meshConcepts.set(at, concept);
    }
    return concept;
  }

  /** The concept an ICD-10-CM code names with certainty (decision 126): the code's own, else its nearest parent code's. */
  conceptOfIcd10(code: string): Concept | undefined {
    const root = this.root();
    if (!root.byIcd10) {
      root.byIcd10 = new Map();
      for (const [at, concept] of lexicon().concepts.entries()) for (const mapped of concept.icd10) root.byIcd10.set(mapped, at);
    }
    const upper = code.toUpperCase().trim();
    for (let length = upper.length; length >= 3; length--) {
      const at = root.byIcd10.get(upper.slice(0, length).replace(/\.$/, ''));
      if (at !== undefined) return root.meshConcept(at);
    }
    return undefined;
  }

  /** A concept by its id: a hand entry's, a MeSH heading's, or none. */
  concept(conceptId: string): Concept | undefined {
    const root = this.root();
    const hand = root.handConcepts.get(conceptId);
    if (hand) return hand;
    const at = conceptId.startsWith('mesh:') ? lexicon().byId(conceptId) : undefined;
    return at === undefined ? undefined : root.meshConcept(at);
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

  /**
   * Every concept named in the text, in order; the longest mention wins where they overlap. Words are matched on
   * their normalised keys (normalize.ts) against the hand entries, the record's terms and the MeSH lexicon; a short
   * form defined in the text ("hidradenitis suppurativa (HS)") reads as its definition; an ambiguous one ("MS",
   * "PE") only with support from `options.context` or another concept of the text (decision 127).
   */
  find(text: string, options: FindOptions = {}): Mention[] {
    const lex = lexicon();
    const tokens = tokenize(text);
    const capitals = /[A-Z]/.test(text) ? null : (words: string) => capitalisedShortForm(words, (form) => this.isAmbiguous(form));
    const written = tokens.map((token) => shortFormOfPlural(token.word, capitals && ((base) => Boolean(capitals(base) ?? this.phrase(base)))));
    const lower = written.map((word) => standardSpelling(word.toLowerCase()));
    const full = options.reach === 'full';
    const definitions = this.definitions(text, tokens, full);
    const kept: Mention[] = [];
    const pending: Array<{ mention: Mention; readings: Concept[] }> = [];
    for (let index = 0; index < tokens.length; ) {
      let found: { concept: Concept; size: number; readings?: Concept[]; narrower?: true } | null = null;
      let key = '';
      let exact = '';
      let normal = '';
      const limit = Math.min(MAX_WORDS, tokens.length - index);
      const lexiconWords = lex.maxWords(tokens[index].key, lower[index]);
      // "Polyneuropathy (alcoholic or other)": a lexicon term never spans a bracket or a clause's end (decision 140).
      let crossed = false;
      let listed = false;
      for (let size = 1; size <= limit; size++) {
        const token = tokens[index + size - 1];
        if (size > 1 && /[()[\];:]/.test(text.slice(tokens[index + size - 2].end, token.start))) crossed = true;
        // "Fluticasone propionate, salmeterol, montelukast": a list of medicines, never the combination product MeSH names.
        if (size > 1 && text.slice(tokens[index + size - 2].end, token.start).includes(',')) listed = true;
        const phrasable = size === 1 || this.prefix(key); // `key` is still the words before: every phrase's prefixes are kept
        key = size === 1 ? lower[index] : `${key} ${lower[index + size - 1]}`;
        exact = size === 1 ? written[index + size - 1] : `${exact} ${written[index + size - 1]}`;
        normal = size === 1 ? token.key : `${normal} ${token.key}`;
        const phrased = phrasable ? (this.phrase(key) ?? this.exact(capitals?.(key) ?? exact)) : undefined;
        const concept = phrased?.criteriaOnly && !options.trialIdioms ? undefined : phrased;
        if (concept) found = { concept, size, ...(size === 1 && this.isAmbiguous(exact) ? { readings: [concept] } : {}) };
        else if (size <= lexiconWords && !crossed) {
          const at = this.lexiconTerm(normal, full);
          const short = at === undefined && full ? lex.exact(exact) : undefined;
          // "Kidney disease, diabetic neuropathy": a term that crosses a comma (MeSH's inverted "Kidney Diseases, Diabetic")
          // must end where the list item ends, not inside the next item's words (decision 180).
          // A name the build wrote with a paired word is never MeSH's inverted order: it never crosses a comma (decision 216).
          const cutItem = listed && (continuesPhrase(text, tokens, index + size - 1) || lex.isPaired(normal));
          const hidden = at !== undefined && options.trialIdioms && NOT_IN_CRITERIA.test(lex.concepts[at].name);
          if (at !== undefined && !(listed && lex.concepts[at].kind === 'medication') && !cutItem && !hidden)
            found = { concept: this.meshConcept(at), size, ...(lex.isNarrower(normal) && lex.term(normal) === at ? { narrower: true as const } : {}) };
          else if (short) {
            const readings = short.map((reading) => this.meshConcept(reading));
            found = { concept: readings[0], size, ...(readings.length > 1 || this.isAmbiguous(exact) ? { readings } : {}) };
          }
        }
        if (size >= lexiconWords && !this.prefix(key)) break;
      }
      const defined = definitions.get(tokens[index].word);
      if (defined !== undefined && (!found || found.size === 1)) found = defined ? { concept: defined, size: 1 } : null;
      if (!found || found.size === 1) found = this.headOfPlace(text, tokens, index, full) ?? found;
      if (!found) {
        const impaired = impairedFunction(text, tokens, index);
        const concept = impaired ? this.phrase(impaired.phrase) : undefined;
        if (impaired && concept?.kind === 'condition') found = { concept, size: impaired.size };
      }
      if (!found) {
        index++;
        continue;
      }
      // "Pseudo-gout", "androgen deprivation", "anti-estrogen", "post-transplant baseline": not the concept (reversed.ts).
      const turn = turnOf(text, tokens, index, found.size, found.concept, (id) => this.lexiconIndex(id), Boolean(options.trialIdioms));
      if (turn) {
        const at = turn === 'drop' ? undefined : turn.keys.map((key) => this.lexiconTerm(key, full)).find((term) => term !== undefined);
        if (at !== undefined && turn !== 'drop') kept.push({ concept: this.meshConcept(at), start: tokens[turn.from].start, end: tokens[turn.to].end });
        index = turn === 'drop' ? index + found.size : turn.to + 1;
        continue;
      }
      const mention: Mention = {
        concept: found.concept,
        start: tokens[index].start,
        end: tokens[index + found.size - 1].end,
        ...(found.narrower ? { narrower: found.narrower } : {}),
      };
      if (found.readings) {
        pending.push({ mention, readings: found.readings });
        index += found.size;
        continue;
      }
      const previous = kept.at(-1);
      // "HIV infection", "(HIV) disease": a generic head noun right after a concept belongs to it.
      // "Hepatitis C virus infection", "HIV viral disease": the virus named again before the head is still the concept's.
      const between = previous ? text.slice(previous.end, mention.start) : '';
      const head = text.slice(mention.start, mention.end);
      const generic =
        previous &&
        ((GENERIC_HEAD.test(head) && /^[\s()/,-]{0,3}$/.test(between)) ||
          (isA(previous.concept.id, VIRUS_DISEASES) &&
            ((GENERIC_HEAD.test(head) && /^\s+vir(?:us|al)\s+$/i.test(between)) || (VIRUS_HEAD.test(head) && /^\s+$/.test(between)))));
      if (!generic) kept.push(mention);
      else previous.end = mention.end;
      const start = index;
      index += found.size;
      // "Hepatitis B or C", "hepatitis B/C": a letter or digit after a conjunction names the sibling concept.
      if (!generic && /^[a-z0-9]$/i.test(tokens[index - 1].word)) {
        const stem = lower.slice(start, index - 1).join(' ');
        const normalStem = tokens
          .slice(start, index - 1)
          .map((token) => token.key)
          .join(' ');
        for (;;) {
          let next = index;
          if (next < tokens.length && /^(?:or|and)$/i.test(tokens[next].word)) next++;
          const sibling = tokens[next];
          if (
            !sibling ||
            !/^(?:[a-z0-9]|ii|iii|iv)$/i.test(sibling.word) ||
            !/^[\s,/&]*(?:(?:or|and)[\s/]*)?(?:or)?\s*$/i.test(text.slice(tokens[index - 1].end, sibling.start))
          )
            break;
          const at = this.lexiconTerm(`${normalStem} ${sibling.key}`, full);
          const concept = this.phrase(`${stem} ${sibling.word.toLowerCase()}`) ?? (at === undefined ? undefined : this.meshConcept(at));
          if (!concept) break;
          kept.push({ concept, start: sibling.start, end: sibling.end });
          index = next + 1;
        }
      }
    }
    const read = pending.length ? this.resolveAmbiguous(pending, kept, options.context ?? []) : kept;
    const headLookup = {
      phrase: (words: string) => this.phrase(words),
      term: (keys: string) => {
        const at = this.lexiconTerm(keys, full);
        return at === undefined ? undefined : this.meshConcept(at);
      },
    };
    const heads = withClassForms(
      text,
      withSharedLeadWord(text, tokens, lower, withSharedHeads(text, tokens, lower, read, headLookup), headLookup),
      (phrase, action) => this.medicineNamed(phrase, full, action),
    );
    return full ? withNamedMedicines(text, heads) : heads;
  }

  /** The medication a phrase names (hand file, then lexicon); `action`: a MeSH pharmacological action's class only (D27). */
  private medicineNamed(phrase: string, full: boolean, action = false): Concept | undefined {
    const at = this.lexiconTerm(normalisedKey(phrase), full);
    const concept = this.phrase(phraseKey(phrase, false)) ?? (at === undefined ? undefined : this.meshConcept(at));
    return concept?.kind === 'medication' && (!action || isActionClass(this.lexiconIndex(concept.id))) ? concept : undefined;
  }

  /**
   * A lexicon term. The reviewed reach reads, besides the hand entries and the record's terms, only a disease's
   * preferred name (MeSH C outside the signs and pathological processes of C23, F03): never a drug, a procedure, a
   * synonym or a symptom, whose reading in criteria waits for the criteria reader's move to the full reach.
   */
  private lexiconTerm(key: string, full: boolean): number | undefined {
    const lex = lexicon();
    const filed = lex.term(key);
    // "Foot drop" is not peroneal neuropathy, "idiopathic PAH" not the familial kind (related-terms.ts, decision 302).
    const related = filed === undefined ? null : relatedReading(lex, key, filed);
    const at = related === 'unread' ? undefined : related ? related.at : filed;
    if (at === undefined || full) return at;
    const concept = lex.concepts[at];
    return lex.isPreferred(key) && concept.trees.every((tree) => /^(?:C(?!23)\d\d|F03)/.test(tree)) && !TOO_BROAD.test(concept.name) ? at : undefined;
  }

  private isAmbiguous(written: string): boolean {
    return AMBIGUOUS_SHORT_FORMS.has(written) || lexicon().ambiguous.has(written);
  }

  /**
   * An ambiguous short form is read as the one of its readings that the context supports: the trial's conditions,
   * or another concept of the same text, being the reading or related to it in the hierarchy. None or several
   * supported: left unread, never guessed.
   */
  private resolveAmbiguous(pending: Array<{ mention: Mention; readings: Concept[] }>, kept: Mention[], context: readonly string[]): Mention[] {
    const support = [...context, ...this.recordConcepts(), ...kept.map((mention) => mention.concept.id)];
    const added: Mention[] = [];
    // Failing a related concept, the body system the note's medicines and operations treat (short-form-support.ts).
    const lex = lexicon();
    const supportAt = support.map((id) => this.lexiconIndex(id)).filter((at) => at !== undefined);
    const systems = treatedSystems(lex, supportAt);
    // An operation reading ("PCI") by a condition of the system it operates on ("CAD"), never a condition reading.
    const diseased = conditionSystems(lex, supportAt);
    const operatesOn = (at: number) => [...operatedSystems(lex, at)].some((system) => diseased.has(system));
    const bySystem = (reading: Concept) => {
      const at = this.lexiconIndex(reading.id) ?? -1;
      return at >= 0 && ((systems.size > 0 && inSystems(lex, at, systems)) || operatesOn(at));
    };
    for (const { mention, readings } of pending) {
      const related = readings.filter((reading) => support.some((id) => this.related(reading.id, id)));
      const supported = related.length ? related : readings.filter(bySystem);
      if (supported.length === 1) added.push({ ...mention, concept: supported[0] });
    }
    return added.length ? [...kept, ...added].sort((a, b) => a.start - b.start) : kept;
  }

  /** The same concept, or two concepts one under the other or on one branch of MeSH's tree (two levels deep). */
  related(a: string, b: string): boolean {
    if (a === b) return true;
    const [first, second] = [this.lexiconIndex(a), this.lexiconIndex(b)];
    return first !== undefined && second !== undefined && lexicon().related(first, second);
  }

  /** The lexicon index of a concept id: a MeSH id's heading, or the heading a hand concept names. */
  lexiconIndex(conceptId: string): number | undefined {
    // A hand entry's id (its own, or the MeSH id it was stored under) answers through the heading it names; any
    // other MeSH id is its own heading, even where a hand entry reads it (atorvastatin stays atorvastatin here).
    const hand = this.root().handConcepts.get(conceptId);
    const ui = hand ? (hand.descriptor ?? hand.mesh) : conceptId.startsWith('mesh:') ? conceptId.slice(5) : undefined;
    return ui === undefined ? undefined : lexicon().byId(ui);
  }

  /**
   * Short forms the text defines: "hidradenitis suppurativa (HS)" makes "HS" that concept for the whole text; a
   * definition the vocabulary cannot read ("hereditary spherocytosis" spelt out but unknown) still stops "HS" from
   * being read as something else.
   */
  private definitions(text: string, tokens: Token[], full: boolean): Map<string, Concept | null> {
    const found = new Map<string, Concept | null>();
    if (!text.includes('(')) return found;
    for (const match of text.matchAll(/\(\s*([A-Z][A-Za-z0-9-]{0,6}[A-Z0-9])\s*\)/g)) {
      const abbreviation = match[1];
      const before = tokens.findLastIndex((token) => token.end <= match.index);
      if (before < 0) continue;
      const letters = abbreviation.replace(/[^A-Za-z]/g, '').toUpperCase();
      let concept: Concept | null = null;
      for (let size = Math.min(MAX_WORDS, before + 1); size >= 1 && !concept; size--) {
        const words = tokens.slice(before - size + 1, before + 1);
        if (words[0].word[0].toUpperCase() !== letters[0] || (size === 1 && words[0].word === abbreviation)) continue;
        const phrase = words.map((token) => token.word.toLowerCase()).join(' ');
        const at = this.lexiconTerm(words.map((token) => token.key).join(' '), full);
        concept = this.phrase(phrase) ?? (at === undefined ? null : this.meshConcept(at));
      }
      const initials = tokens
        .slice(Math.max(0, before - letters.length + 1), before + 1)
        .map((token) => token.word[0].toUpperCase())
        .join('');
      if (concept) found.set(abbreviation, concept);
      else if (initials === letters && !found.has(abbreviation)) found.set(abbreviation, null);
    }
    return found;
  }

  /**
   * "Disease of the liver", "fracture of the hip", "cancer of the breast": a head noun and the place "of" it names what
   * the place and the head name together ("liver disease"). The place is one or two words that end the phrase, so
   * "tumours of the cervical spine" is never "cervical tumour" (decision 216).
   */
  private headOfPlace(text: string, tokens: Token[], index: number, full: boolean): { concept: Concept; size: number } | null {
    const head = tokens[index];
    // "Allergy to eggs", "hypersensitivity to peanuts": the allergen before the head is MeSH's name ("egg hypersensitivity").
    const allergy = ALLERGY_HEAD.test(head.word) && tokens[index + 1]?.key === 'to';
    if (!allergy && (!PLACE_HEAD.test(head.key) || tokens[index + 1]?.key !== 'of')) return null;
    const heads = allergy ? ['hypersensitivity', 'allergy'] : [head.word.toLowerCase()];
    const first = tokens[index + 2]?.key === 'the' ? index + 3 : index + 2;
    for (let size = 2; size >= 1; size--) {
      const place = tokens.slice(first, first + size);
      if (place.length < size || place.some((token) => !/^\p{L}{3,}$/u.test(token.word)) || continuesPhrase(text, tokens, first + size - 1)) continue;
      if (!/^\s+$/.test(text.slice(head.end, place[0].start).replace(/\b(?:of|to|the)\b/gi, ''))) continue;
      for (const word of heads) {
        const phrase = [...place.map((token) => token.word.toLowerCase()), word].join(' ');
        const at = this.lexiconTerm(normalisedKey(phrase), full);
        const concept = this.phrase(phrase) ?? (at === undefined ? undefined : this.meshConcept(at));
        if (concept) return { concept, size: first + size - index };
      }
    }
    return null;
  }
}

let shared: Vocabulary | null = null;

/** The product's vocabulary (built once per process, with the MeSH lexicon loaded on first use). */
export function vocabulary(): Vocabulary {
  shared ??= new Vocabulary([]);
  return shared;
}

// ---- hierarchy and classes (decision 127): MeSH's tree and pharmacological actions, for the criteria reader and the matcher ----

/**
 * `conceptId` is `ancestorId` or sits under it in MeSH's tree: "non-small cell lung cancer" is a neoplasm, "NSTEMI" a
 * myocardial infarction. A hand concept answers through the heading it names; an id the lexicon cannot place is only itself.
 */
export function isA(conceptId: string, ancestorId: string): boolean {
  if (conceptId === ancestorId) return true;
  if (CLINICAL_BROADER[conceptId]?.some((broader) => isA(broader, ancestorId))) return true;
  if (meshIsA(conceptId, ancestorId)) return true;
  // A heading under a linked one inherits its link: vascular dementia (under Dementia in MeSH) is a cognitive impairment.
  return Object.entries(CLINICAL_BROADER).some(
    ([narrower, broader]) => narrower !== conceptId && meshIsA(conceptId, narrower) && broader.some((item) => item === ancestorId || meshIsA(item, ancestorId)),
  );
}

/** MeSH's tree alone: no clinical links (they are followed one step, by `isA`). A benign tumour is no cancer (decision 349). */
function meshIsA(conceptId: string, ancestorId: string): boolean {
  const [a, b] = [vocabulary().lexiconIndex(conceptId), vocabulary().lexiconIndex(ancestorId)];
  return a !== undefined && b !== undefined && lexicon().isA(a, b) && !benignUnderCancer(a, b);
}

/**
 * A medicine is in a class when one of its pharmacological actions is the class or under it, or the medicine itself
 * sits under it: atorvastatin is a "Hydroxymethylglutaryl-CoA Reductase Inhibitor" (a statin), warfarin an anticoagulant.
 */
export function inClass(drugId: string, classId: string): boolean {
  if (drugId === classId) return true;
  // A medicine MeSH lacks, named by its stem, is in the stem's class (decision 317).
  const stemClass = stemClassName(drugId);
  const stemClassId = stemClass ? meshIdByName(stemClass) : undefined;
  if (stemClassId) return stemClassId === classId || inClass(stemClassId, classId) || isA(stemClassId, classId);
  const [drug, drugClass] = [vocabulary().lexiconIndex(drugId), vocabulary().lexiconIndex(classId)];
  return drug !== undefined && drugClass !== undefined && lexicon().inClass(drug, drugClass) && !benignUnderCancer(drug, drugClass);
}

/** Every heading above a concept in MeSH's tree, as concept ids (`mesh:D...`), nearest first within each branch. */
export function ancestorsOf(conceptId: string): string[] {
  const at = vocabulary().lexiconIndex(conceptId);
  return at === undefined
    ? []
    : lexicon()
        .ancestors(at)
        .map((ancestor) => `mesh:${lexicon().concepts[ancestor].ui}`);
}

/**
 * A diagnosis a person is told they have: a MeSH disease (tree C) or mental disorder (F03), or a reviewed hand condition
 * that is not for clinicians only. Not a procedure, a finding's name or a substance (decision 150).
 */
export function isDiagnosis(conceptId: string): boolean {
  const concept = vocabulary().concept(conceptId);
  if (concept?.kind !== 'condition' || concept.clinicianOnly) return false;
  const at = vocabulary().lexiconIndex(conceptId);
  return at === undefined || lexicon().concepts[at].trees.some((tree) => tree.startsWith('C') || tree.startsWith('F03'));
}

/** A MeSH heading of operations alone (tree E04, "Surgical Procedures, Operative"): a procedure, not a condition (decision 235). */
export function isOperationHeading(conceptId: string): boolean {
  const at = vocabulary().lexiconIndex(conceptId);
  return at !== undefined && lexicon().concepts[at].trees.length > 0 && lexicon().concepts[at].trees.every((tree) => tree.startsWith('E04'));
}

/** A procedure by MeSH's tree (E: diagnosis, therapeutics, anesthesia, surgery, investigative techniques): what is done to the person. */
export function isProcedure(conceptId: string): boolean {
  const at = vocabulary().lexiconIndex(conceptId);
  return at !== undefined && lexicon().concepts[at].trees.some((tree) => /^E0[1-5]/.test(tree));
}

/** The drug classes (pharmacological actions) of a medicine, as concept ids. */
export function drugClassesOf(drugId: string): string[] {
  const at = vocabulary().lexiconIndex(drugId);
  return at === undefined ? [] : lexicon().concepts[at].actions.map((action) => `mesh:${lexicon().concepts[action].ui}`);
}

/** The concept id of a MeSH heading by its preferred name ("Pregnancy" -> "mesh:D011247"), if the lexicon keeps it. */
export function meshIdByName(name: string): string | undefined {
  const at = lexicon().byName(name);
  return at === undefined ? undefined : `mesh:${lexicon().concepts[at].ui}`;
}

export function conceptRef(concept: Concept): ConceptRef {
  return { id: concept.id, name: concept.en, ...(concept.mesh ? { mesh: concept.mesh } : {}), ...(concept.icd10 ? { icd10: concept.icd10 } : {}) };
}

/** A trial's own medicine as a concept, under `STUDY_MEDICINE_PREFIX`. */
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
  return vocabulary().concept(conceptId)?.es ?? null;
}
