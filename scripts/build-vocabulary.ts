/**
 * Compiles the product's clinical vocabulary from MeSH 2024 and ICD-10-CM (../shared/data/vocabulary) into
 * src/server/features/trials/vocabulary/mesh-2024.json.gz and its NOTICE.md (decision 126).
 *
 *   npm run build:vocabulary [-- ../shared/data/vocabulary]
 *
 * Kept by MeSH tree, never by what a corpus mentions: diseases (C), mental disorders (F03), smoking, tobacco and
 * drinking behaviours (F01.145.805, .958, .317), breast feeding, pregnancy, menopause and lactation (G08.686),
 * surgical procedures (E04) and the therapies of E02 a person is given (`KEPT_TREES`, decision 254); drugs: every
 * descriptor with a pharmacological action, every pharmacological action class (D27.505), every trade name's
 * ingredient, and chemical classes whose members share an action (decision 256).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { exactKey, pairedForms, phraseKey, tokenize, wordOrders } from '../src/server/features/trials/vocabulary/normalize';
import { ORDINARY_WORDS, REJECTED_DESCRIPTORS, TOO_GENERIC_TERMS } from '../src/server/features/trials/vocabulary/rejected';
import { type Descriptor, readMeshDescriptors } from './mesh-descriptors';

const source = path.resolve(process.argv[2] ?? '../shared/data/vocabulary');
const target = path.resolve('src/server/features/trials/vocabulary/mesh-2024.json.gz');

const gz = (file: string) => gunzipSync(readFileSync(path.join(source, file))).toString('utf8');
const rows = (text: string) =>
  text
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => line.split('\t'));

const descriptors = readMeshDescriptors(source);
/**
 * MeSH's category headings carry no tree number in the source (the 112 without one): they are the roots of their
 * trees. Neoplasms is C04, so "any malignancy" is everything under C04.
 */
const CATEGORY_ROOTS: Record<string, string> = {
  Infections: 'C01',
  Neoplasms: 'C04',
  'Musculoskeletal Diseases': 'C05',
  'Digestive System Diseases': 'C06',
  'Stomatognathic Diseases': 'C07',
  'Respiratory Tract Diseases': 'C08',
  'Otorhinolaryngologic Diseases': 'C09',
  'Nervous System Diseases': 'C10',
  'Eye Diseases': 'C11',
  'Urogenital Diseases': 'C12',
  'Cardiovascular Diseases': 'C14',
  'Hemic and Lymphatic Diseases': 'C15',
  'Congenital, Hereditary, and Neonatal Diseases and Abnormalities': 'C16',
  'Skin and Connective Tissue Diseases': 'C17',
  'Nutritional and Metabolic Diseases': 'C18',
  'Endocrine System Diseases': 'C19',
  'Immune System Diseases': 'C20',
  'Disorders of Environmental Origin': 'C21',
  'Occupational Diseases': 'C24',
  'Chemically-Induced Disorders': 'C25',
  'Mental Disorders': 'F03',
};
for (const descriptor of descriptors)
  if (!descriptor.tree_numbers.length && CATEGORY_ROOTS[descriptor.name]) descriptor.tree_numbers = [CATEGORY_ROOTS[descriptor.name]];
/**
 * How criteria and notes write a heading that MeSH's entry terms do not (decision 255): "metastatic disease" is Neoplasm
 * Metastasis, as "metastases" is; a place's surgical procedures are its surgery.
 */
const WRITTEN_AS: Record<string, string[]> = {
  'Neoplasm Metastasis': ['Metastatic Disease', 'Metastatic Diseases', 'Metastatic Lesion', 'Metastatic Lesions', 'Metastatic Cancer'],
};
for (const descriptor of descriptors) if (WRITTEN_AS[descriptor.name]) descriptor.entry_terms = [...descriptor.entry_terms, ...WRITTEN_AS[descriptor.name]];
// "Cardiac Surgical Procedures" is written "cardiac surgery", "Thoracic Surgical Procedures" "thoracic surgery" (decision 255).
for (const descriptor of descriptors) {
  const place = /^(.+) Surgical Procedures$/.exec(descriptor.name)?.[1];
  // Elective and prophylactic name when an operation is done, not where: "elective surgery" is a plan, not an operation had.
  if (place && !/^(?:Elective|Prophylactic)$/.test(place) && descriptor.tree_numbers.some((tree) => tree.startsWith('E04')))
    descriptor.entry_terms = [...descriptor.entry_terms, `${place} Surgery`, `${place} Surgeries`];
}
/**
 * A transplantation is written "transplant" (decision 271): "corneal transplants", "autologous transplant", "transplant" are
 * Corneal Transplantation, Transplantation, Autologous and Transplantation. Only where Transplantation is the heading's head
 * noun (last, or first before MeSH's inverting comma), so "Transplantation Conditioning" stays as it is.
 */
for (const descriptor of descriptors)
  if (/(?:^|\s)Transplantation(?:,\s.+)?$/.test(descriptor.name) && descriptor.tree_numbers.some((tree) => tree.startsWith('E04')))
    descriptor.entry_terms = [
      ...descriptor.entry_terms,
      ...['Transplant', 'Transplants'].map((noun) => descriptor.name.replace(/Transplantation(?=,|$)/, noun)),
    ];
const lexicalTag = new Map<string, string>();
/**
 * A descriptor's preferred concept holds its synonyms; its other concepts are narrower, broader or related ("Interstitial
 * Pneumonia, Usual" under Idiopathic Pulmonary Fibrosis). A condition term only those name is marked, so a reader can
 * tell a synonym from a narrower kind (decision 140).
 */
const termConcept = new Map<string, string>();
const preferredConcept = new Map<string, string>();
for (const [ui, , concept, , term, , , tag, recordPreferred] of rows(gz('mesh/mesh2024_terms.tsv.gz'))) {
  lexicalTag.set(`${ui}\t${term}`, tag);
  termConcept.set(`${ui}\t${term}`, concept);
  if (recordPreferred === 'Y') preferredConcept.set(ui, concept);
}
const synonymOfHeading = (ui: string, term: string) => {
  const concept = termConcept.get(`${ui}\t${term}`);
  return concept === undefined || concept === preferredConcept.get(ui);
};
const tradeNames = rows(readFileSync(path.join(source, 'mesh/mesh2024_drug_trade_names.tsv'), 'utf8'));
const ingredients = new Set(tradeNames.map((row) => row[1]));

/**
 * Therapies of E02 kept besides the operations of E04 (decision 254): dialysis, radiotherapy, biological therapy (transplants,
 * transfusions), respiratory therapy, intubation; the kinds of drug therapy a person is given (chelation, chemoradiotherapy,
 * enzyme, hormone replacement, targeted, nicotine replacement, opiate substitution, thrombolytic therapy, sclerotherapy,
 * pleurodesis; not routes, schedules or prescribing, and not the timing or combination of a chemotherapy or antiretroviral
 * therapy, which the hand file reads as the therapy itself), cryotherapy, laser therapy, phototherapy, blood component
 * removal (apheresis) and therapeutic occlusion (embolization).
 */
const KEPT_TREES =
  /^(?:C\d|F03|F01\.145\.(?:805|958|317)|F01\.145\.407\.199|G08\.686\.(?:784\.769|157|523)|E04\.|E02\.(?:870|815|095|880|585|258|594|774|120|926)|E02\.319\.(?:155|164|341|353|452|574|597|620|685|694|805|913))/;
const kindOf = (descriptor: Descriptor): 'condition' | 'medication' | null => {
  if (REJECTED_DESCRIPTORS.has(descriptor.name.toLowerCase())) return null;
  if (descriptor.tree_numbers.some((tree) => KEPT_TREES.test(tree))) return 'condition';
  if (descriptor.tree_numbers.some((tree) => tree.startsWith('D27.505')) || descriptor.pharm_actions.length || ingredients.has(descriptor.ui))
    return 'medication';
  return null;
};

/**
 * A chemical class whose members are medicines of one kind names a drug class as criteria write it (decision 256):
 * "anthracyclines", "taxanes", "sulfonylureas", "phenothiazines" are the doxorubicins, paclitaxels and glipizides under
 * them. Kept as a medication when its name is a plural (a class, not one substance) and, of the headings right under it in
 * MeSH's trees of organic, heterocyclic and polycyclic compounds and hormones (D02, D03, D04, D06), two or more and at least
 * two thirds share one pharmacological action, so "pyridines" (medicines of every kind) or "proline" never become one.
 */
function drugClassesByMembers(): Set<string> {
  const childrenOf = new Map<string, Descriptor[]>();
  for (const descriptor of descriptors)
    for (const tree of descriptor.tree_numbers) {
      const parent = tree.slice(0, tree.lastIndexOf('.'));
      childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), descriptor]);
    }
  const classes = new Set<string>();
  for (const descriptor of descriptors) {
    if (kindOf(descriptor) || REJECTED_DESCRIPTORS.has(descriptor.name.toLowerCase()) || !/s$/.test(descriptor.name) || /Species$/.test(descriptor.name))
      continue;
    const members = new Map<string, Descriptor>();
    for (const tree of descriptor.tree_numbers.filter((item) => /^D0[2346]\./.test(item)))
      for (const child of childrenOf.get(tree) ?? []) members.set(child.ui, child);
    const actions = new Map<string, number>();
    for (const member of members.values())
      for (const action of new Set(member.pharm_actions.map((item) => item.ui))) actions.set(action, (actions.get(action) ?? 0) + 1);
    const shared = Math.max(0, ...actions.values());
    if (shared >= 2 && shared * 3 >= members.size * 2) classes.add(descriptor.ui);
  }
  return classes;
}
const drugClassUis = drugClassesByMembers();

const kept = descriptors.flatMap((descriptor) => {
  const kind = kindOf(descriptor) ?? (drugClassUis.has(descriptor.ui) ? 'medication' : null);
  return kind ? [{ descriptor, kind }] : [];
});
const index = new Map(kept.map(({ descriptor }, at) => [descriptor.ui, at]));

/** A short form: an abbreviation or acronym (MeSH's lexical tags), or a word of capitals ("COPD", "HIV"). */
const isShortForm = (ui: string, term: string) =>
  !/\s/.test(term) &&
  term.length <= 8 &&
  (/^(?:ABB|ACR|ABX|ACX)$/.test(lexicalTag.get(`${ui}\t${term}`) ?? '') || (term.length <= 6 && /[A-Z].*[A-Z]/.test(term)));

/** Why a term is not read: too short, an ordinary English word, or a heading too generic to name a condition or drug. */
function rejected(term: string, preferred: boolean): boolean {
  const tokens = tokenize(term);
  if (!tokens.length) return true;
  const letters = term.replace(/[^\p{L}\p{N}]/gu, '');
  if (letters.length <= 2) return true;
  const key = phraseKey(term);
  if (TOO_GENERIC_TERMS.has(key)) return true;
  if (tokens.length === 1) {
    if (ORDINARY_WORDS.has(key)) return true;
    // A one-word synonym of four letters or fewer ("Abate", "Crack", "Ice") names too many other things; the heading's own name stays.
    if (!preferred && letters.length <= 4) return true;
  }
  // Chemical names with locants and stereo-descriptors ("1,2-...-(6S-...)") are never written in notes or criteria.
  if (/\d,\d|\(\d|[[\]]|\b[RS]\)|alpha\(|\*/.test(term) || term.length > 80) return true;
  return false;
}

const terms = new Map<string, Set<number>>();
/** Keys with a source term in their heading's preferred concept (or of a medicine, whose other concepts are salts and brands). */
const synonymKeys = new Set<string>();
const exact = new Map<string, Set<number>>();
const allShortForms = new Map<string, Set<string>>();
for (const descriptor of descriptors)
  for (const term of [descriptor.name, ...descriptor.entry_terms])
    if (isShortForm(descriptor.ui, term)) {
      const set = allShortForms.get(exactKey(term)) ?? new Set();
      set.add(descriptor.ui);
      allShortForms.set(exactKey(term), set);
    }

const put = (map: Map<string, Set<number>>, key: string, at: number) => {
  if (!key) return;
  const set = map.get(key) ?? new Set();
  set.add(at);
  map.set(key, set);
};
for (const [at, { descriptor }] of kept.entries()) {
  for (const term of new Set([descriptor.name, ...descriptor.entry_terms])) {
    const preferred = term === descriptor.name;
    if (isShortForm(descriptor.ui, term)) {
      if (term.replace(/[^\p{L}\p{N}]/gu, '').length > 2) put(exact, exactKey(term), at);
      continue;
    }
    if (rejected(term, preferred)) continue;
    const synonym = kept[at].kind === 'medication' || synonymOfHeading(descriptor.ui, term);
    for (const order of wordOrders(term)) {
      put(terms, phraseKey(order), at);
      if (synonym) synonymKeys.add(`${phraseKey(order)}\t${at}`);
    }
  }
}

// A drug class by its members (decision 256) never takes or blocks a name another heading has ("tetracyclines" of Tetracycline).
for (const map of [terms, exact])
  for (const ats of map.values()) {
    const classes = [...ats].filter((at) => drugClassUis.has(kept[at].descriptor.ui));
    if (classes.length < ats.size) for (const at of classes) ats.delete(at);
  }

/**
 * The same names with one word MeSH pairs written the other way ("renal calculi" of Kidney Calculi, "type II diabetes",
 * "heart problems", "cardiovascular illness"; `pairedForms`, decisions 216 and 313): added where no MeSH term has the
 * key, for the one heading that derives it (two that derive it: neither), marked as their source term is (synonym or
 * narrower kind).
 */
const derived = new Map<string, Set<number>>();
const derivedSynonym = new Set<string>();
for (const [key, ats] of terms)
  for (const at of ats) {
    if (kept[at].kind !== 'condition') continue;
    for (const form of pairedForms(key)) {
      if (terms.has(form)) continue;
      put(derived, form, at);
      if (synonymKeys.has(`${key}\t${at}`)) derivedSynonym.add(`${form}\t${at}`);
    }
  }
/** Keys written with the other word of a pair (marked "+"): never read across a comma, where MeSH's own inverted names are. */
const pairedKeys = new Set<string>();
for (const [form, ats] of derived)
  if (ats.size === 1) {
    pairedKeys.add(form);
    const [at] = ats;
    terms.set(form, ats);
    if (derivedSynonym.has(`${form}\t${at}`)) synonymKeys.add(`${form}\t${at}`);
  }

/** A key two headings share: the one whose preferred name it is keeps it; otherwise no one does (never guessed). */
function settle(map: Map<string, Set<number>>): Map<string, number[]> {
  const settled = new Map<string, number[]>();
  for (const [key, ats] of map) {
    if (ats.size === 1) settled.set(key, [...ats]);
    else {
      const owners = [...ats].filter((at) => wordOrders(kept[at].descriptor.name).some((order) => phraseKey(order) === key));
      if (owners.length === 1) settled.set(key, owners);
    }
  }
  return settled;
}
const settledTerms = settle(terms);
// Short forms keep every reading; the recognizer reads an ambiguous one only with support from its context.
const settledExact = new Map([...exact].map(([key, ats]) => [key, [...ats]]));
// Ambiguous: several headings of MeSH list it, or in lower case it is an ordinary word ("ALL", "AIDS" stays: four letters).
const ambiguous = [...settledExact.keys()]
  .filter((key) => (allShortForms.get(key)?.size ?? 0) > 1 || settledExact.get(key)!.length > 1 || (key.length <= 3 && ORDINARY_WORDS.has(key.toLowerCase())))
  .sort();

/** A key that is its heading's preferred name (in one of its word orders) is marked "*": the reviewed reach reads only those. */
const isPreferred = (key: string, at: number) => wordOrders(kept[at].descriptor.name).some((order) => phraseKey(order) === key);

/** A condition key none of whose source terms is in its heading's preferred concept is marked "~": a narrower or related kind. */
const isNarrower = (key: string, at: number) => kept[at].kind === 'condition' && !synonymKeys.has(`${key}\t${at}`);

// ---- ICD-10-CM: a code is a concept's when one of the concept's names, normalised, is the code's own description ----
const icdRows = rows(gz('icd10cm/icd10cm_cms_fy2014-2026.tsv.gz')).filter((row) => row[2] === '1');
const icdTexts = new Map<string, Set<string>>();
const addIcd = (text: string, code: string) => {
  for (const order of wordOrders(text)) {
    const key = phraseKey(order.replace(/,?\s+(?:unspecified|not elsewhere classified|NEC|NOS)$/i, ''));
    if (!key) continue;
    const set = icdTexts.get(key) ?? new Set();
    set.add(code);
    icdTexts.set(key, set);
  }
};
for (const row of icdRows) addIcd(row[8], row[0]);
// The tabular inclusion terms are left out: an inclusion term names a kind the code includes ("blindness" under
// sudden visual loss), so its code is narrower than the heading, never certainly the heading's.
const icdByConcept = new Map<number, Set<string>>();
const icdOwners = new Map<string, Set<number>>();
// The heading's preferred name only: MeSH's entry terms include narrower kinds ("pilar cyst" of Epidermal Cyst,
// "Powassan" of Tick-Borne Encephalitis), whose codes are not the heading's.
for (const [key, ats] of settledTerms) {
  const codes = icdTexts.get(key);
  if (!codes || kept[ats[0]].kind !== 'condition' || !isPreferred(key, ats[0])) continue;
  for (const code of codes) {
    const owners = icdOwners.get(code) ?? new Set();
    owners.add(ats[0]);
    icdOwners.set(code, owners);
  }
}
// A code two concepts claim is neither's: certain or nothing.
for (const [code, owners] of icdOwners) {
  if (owners.size !== 1) continue;
  const [at] = owners;
  const set = icdByConcept.get(at) ?? new Set();
  set.add(code);
  icdByConcept.set(at, set);
}
// The most general code of a concept's codes stands for it ("E11" over its "E11.9"): a child code is dropped when its parent is kept.
const icdOf = (at: number) => {
  const codes = [...(icdByConcept.get(at) ?? [])].sort();
  return codes.filter((code) => !codes.some((other) => other !== code && code.startsWith(other))).join(',');
};

const kindCode = { condition: 'c', medication: 'm' } as const;
const concepts = kept.map(({ descriptor, kind }, at) => [
  descriptor.ui,
  descriptor.name,
  kindCode[kind],
  descriptor.tree_numbers.join('|'),
  descriptor.pharm_actions
    .map((action) => index.get(action.ui))
    .filter((found) => found !== undefined)
    .join(','),
  icdOf(at),
]);
const lines = (map: Map<string, number[]>, marked: boolean) =>
  [...map]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([key, ats]) =>
        `${key}\t${ats.join(',')}${ats.length === 1 && isPreferred(key, ats[0]) ? '*' : marked && ats.length === 1 && isNarrower(key, ats[0]) ? '~' : ''}${marked && pairedKeys.has(key) ? '+' : ''}`,
    )
    .join('\n');

/**
 * Eponyms keep their capital in a heading's plain name ("Hodgkin disease", not "hodgkin disease"; decision 294): in a
 * heading MeSH tags EPO (eponym), a word it writes as a possessive in any eponym term ("Hodgkin's", "Graves'"), and the
 * other names of a hyphenated one ("Wolff-Parkinson-White"). Not in other headings: "Angle" is Angle's classification
 * but also "angle-closure glaucoma".
 */
const possessives = new Set<string>();
const eponymTagged = new Set<string>();
/** How often MeSH writes a word as a hyphenated prefix in terms not about a person ("Non-Small-Cell", "Anti-Inflammatory"). */
const prefixUses = new Map<string, number>();
for (const [ui, name, , , term, , , tag] of rows(gz('mesh/mesh2024_terms.tsv.gz'))) {
  if (tag !== 'EPO') {
    for (const match of term.matchAll(/(?<![\p{L}-])(\p{L}+)-/gu)) prefixUses.set(match[1], (prefixUses.get(match[1]) ?? 0) + 1);
    continue;
  }
  if (term === name) eponymTagged.add(ui);
  for (const match of term.matchAll(/(\p{Lu}\p{L}+?)(?:'s|(?<=s)')(?=[\s,]|$)/gu)) possessives.add(match[1]);
}
/** The person's names in a heading: its possessive eponyms, and the other names joined to one by hyphens ("Wolff-Parkinson-White"). */
const eponymsOf = (name: string) =>
  name.split(/[^\p{L}-]+/u).flatMap((word) => {
    const parts = word.split('-');
    if (!parts.some((part) => possessives.has(part))) return [];
    return parts.filter((part) => possessives.has(part) || (/^\p{Lu}/u.test(part) && (prefixUses.get(part) ?? 0) < 3));
  });
const eponymHeadings = kept.filter(({ descriptor }) => eponymTagged.has(descriptor.ui) && eponymsOf(descriptor.name).length > 0);
const eponyms = {
  words: [...new Set(eponymHeadings.flatMap(({ descriptor }) => eponymsOf(descriptor.name)))].sort(),
  headings: eponymHeadings.map(({ descriptor }) => descriptor.ui).sort(),
};

const counts = {
  descriptors: kept.length,
  eponymHeadings: eponyms.headings.length,
  conditions: kept.filter((item) => item.kind === 'condition').length,
  medications: kept.filter((item) => item.kind === 'medication').length,
  terms: settledTerms.size,
  shortForms: settledExact.size,
  ambiguousShortForms: ambiguous.length,
  pairedTerms: pairedKeys.size,
  narrowerTerms: [...settledTerms].filter(([key, ats]) => ats.length === 1 && isNarrower(key, ats[0])).length,
  conceptsWithIcd10: icdByConcept.size,
  icd10Codes: [...icdByConcept.values()].reduce((sum, set) => sum + set.size, 0),
};
const meta = {
  mesh: 'MeSH 2024 (U.S. National Library of Medicine), restructured: descriptors selected by tree, terms normalised',
  icd10cm: 'ICD-10-CM FY2026 codes and descriptions (CMS)',
  counts,
};
const artifact = { meta, concepts, terms: lines(settledTerms, true), exact: lines(settledExact, false), ambiguous, eponyms };
writeFileSync(target, gzipSync(JSON.stringify(artifact), { level: 9 }));
writeFileSync(path.join(path.dirname(target), 'NOTICE.md'), notice());
console.info(`${JSON.stringify(counts)} -> ${target}`);

function notice(): string {
  return `# The clinical vocabulary: sources and attribution

\`mesh-2024.json.gz\` is built by \`npm run build:vocabulary\` (scripts/build-vocabulary.ts) from ../shared/data/vocabulary
(decision 126). Do not edit it by hand: change the script and build it again.

## MeSH 2024

Medical Subject Headings, **2024 production year**, produced by the U.S. National Library of Medicine (NLM). MeSH is
not copyrighted and free of charge. This file is a **restructured and modified derivative**: descriptors were selected
by tree (C diseases; F03 mental disorders; F01.145 smoking, tobacco use, drinking, breast feeding; G08.686 pregnancy,
menopause, lactation; E04 surgical procedures and E02 dialysis, radiotherapy, biological and respiratory therapy,
intubation and a few kinds of drug therapy, cryo-, laser and phototherapy, apheresis and embolization; drugs with a
pharmacological action, the D27.505 pharmacological action classes, trade names' ingredients and chemical classes whose
members share an action), entry terms normalised (lower case, American spelling, singular, no possessive), a condition's names
also written with the other word of a pair MeSH itself uses (renal/kidney, disorder/disease; decision 216), a few
headings also written as criteria write them ("metastatic disease", "cardiac surgery", "corneal transplant"; decisions 255, 271), and
ordinary words, one- and two-letter terms and chemical names with locants removed. Its use does not imply NLM's endorsement of Cohortly.
Source files: NLM desc2024.xml, mtrees2024.bin via GitHub jaytimm/mesh-resources (commit c72a6a5).

## ICD-10-CM

ICD-10-CM codes FY2026 (CMS "Code Descriptions in Tabular Order", via the CRAN package medicalcoder 0.8.1; CMS and
CDC/NCHS). ICD-10-CM is a U.S. Government work; the ICD-10 base classification is (c) World Health Organization, used
by NCHS with permission. Only the mapping of a code to a MeSH descriptor is kept: a code is a descriptor's when one of
the descriptor's names, normalised, equals the code's description (less a trailing "unspecified"), and no other
descriptor's name does.

## Counts

${Object.entries(counts)
  .map(([key, value]) => `- ${key}: ${value.toLocaleString('en-US')}`)
  .join('\n')}
`;
}
