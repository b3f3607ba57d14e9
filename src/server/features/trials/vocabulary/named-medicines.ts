/**
 * A medicine the vocabulary does not name, known by its nonproprietary name's stem (decision 272). MeSH 2024 keeps newer
 * medicines as supplementary records, whose names the shared data lacks ("cabozantinib", "olaparib", "enzalutamide"), while
 * the WHO INN / USAN stems say what such a word is: "-tinib" a kinase inhibitor, "-mab" a monoclonal antibody, "-parib" a
 * PARP inhibitor. A word of at least seven letters ending in one of these stems, that no concept of the text already
 * covers, is read as that one medicine (never its class: the word names one medicine, whose class the stem only suggests).
 * Stems that end ordinary words ("-cept" of "concept", "-terol" of "cholesterol", "-tidine" of "thymidine") are left out.
 */
const STEMS = [
  'mab|tinib|anib|rafenib|ciclib|parib|lisib|zomib|degib|inostat|lutamide|lidomide|platin|taxel|rubicin',
  'tecan|citabine|arabine|mustine|trexed|sartan|pril|olol|dipine|prazole|floxacin|gliflozin',
  'gliptin|glutide|glitazar|glitazone|xaban|gatran|vastatin|dronate|grastim|poetin|cillin|cycline',
  'azepam|azolam|triptan|setron|lukast|vir|vudine|conazole|fungin|piprazole|peridone|thromycin',
  'sonide|methasone|parin|relin|relix|oxetine|pramine|coxib|profen',
].join('|');
const NAMED = new RegExp(`^(?=[a-z]{7,}$)[a-z]+(?:${STEMS})$`, 'i');
/** Whether any word of a text ends in a stem at all: most texts name none, and are passed over at once. */
const ANY_STEM = new RegExp(`[a-z](?:${STEMS})\\b`, 'i');

/** A medicine named by a word of its stem: its own concept (`cohortly:medicine-named:<word>`), read as a treatment. */
export const NAMED_MEDICINE_PREFIX = 'cohortly:medicine-named:';
export interface NamedMedicineMention {
  concept: { id: string; kind: 'medication'; en: string; es: string; clinicianOnly: false };
  start: number;
  end: number;
}
export function namedMedicineConcept(word: string): NamedMedicineMention['concept'] {
  const name = word.toLowerCase();
  return { id: `${NAMED_MEDICINE_PREFIX}${name}`, kind: 'medication', en: name, es: name, clinicianOnly: false };
}

/** The mentions with every word of a medicine's stem that none of them covers added, in order. */
export function withNamedMedicines<M extends { start: number; end: number }>(text: string, mentions: M[]): Array<M | NamedMedicineMention> {
  if (!ANY_STEM.test(text)) return mentions;
  const added: NamedMedicineMention[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu)) {
    const word = match[0];
    const start = match.index;
    const end = start + word.length;
    if (!NAMED.test(word) || mentions.some((mention) => mention.start < end && mention.end > start)) continue;
    added.push({ concept: namedMedicineConcept(word), start, end });
  }
  return added.length ? [...mentions, ...added].sort((a, b) => a.start - b.start) : mentions;
}

/**
 * The class a medicine named by its stem is in, by the WHO INN / USAN stem definitions (decision 317): "olaparib" is a
 * PARP inhibitor, "ertugliflozin" an SGLT2 inhibitor, "pitavastatin" a statin. Each class is a MeSH heading, so a rule
 * of the class (or of a class above it) reaches the medicine as it reaches the medicines MeSH files. A stem whose class
 * MeSH lacks, or that names several ("-lidomide", "-relin"), places the medicine in none; "-mab" stays with decision 282
 * (a denial of every biologic clears an exclusion of one, and fails no inclusion).
 */
const STEM_CLASSES: ReadonlyArray<[RegExp, string]> = [
  [/parib$/, 'Poly(ADP-ribose) Polymerase Inhibitors'],
  [/tinib$/, 'Tyrosine Kinase Inhibitors'],
  [/(?:ciclib|rafenib)$/, 'Protein Kinase Inhibitors'],
  [/anib$/, 'Angiogenesis Inhibitors'],
  [/lisib$/, 'Phosphoinositide-3 Kinase Inhibitors'],
  [/zomib$/, 'Proteasome Inhibitors'],
  [/inostat$/, 'Histone Deacetylase Inhibitors'],
  [/lutamide$/, 'Androgen Receptor Antagonists'],
  [/(?:platin|mustine)$/, 'Antineoplastic Agents'],
  [/(?:citabine|arabine|trexed)$/, 'Antimetabolites, Antineoplastic'],
  [/tecan$/, 'Topoisomerase I Inhibitors'],
  [/gliflozin$/, 'Sodium-Glucose Transporter 2 Inhibitors'],
  [/gliptin$/, 'Dipeptidyl-Peptidase IV Inhibitors'],
  [/glutide$/, 'Glucagon-Like Peptide-1 Receptor Agonists'],
  [/xaban$/, 'Factor Xa Inhibitors'],
  [/gatran$/, 'Antithrombins'],
  [/vastatin$/, 'Hydroxymethylglutaryl-CoA Reductase Inhibitors'],
  [/sartan$/, 'Angiotensin II Type 1 Receptor Blockers'],
  [/pril$/, 'Angiotensin-Converting Enzyme Inhibitors'],
  [/olol$/, 'Adrenergic beta-Antagonists'],
  [/dipine$/, 'Calcium Channel Blockers'],
  [/prazole$/, 'Proton Pump Inhibitors'],
  [/floxacin$/, 'Fluoroquinolones'],
  [/cillin$/, 'Penicillins'],
  [/cycline$/, 'Tetracyclines'],
  [/(?:conazole|fungin)$/, 'Antifungal Agents'],
  [/(?:vir|vudine)$/, 'Antiviral Agents'],
  [/(?:sonide|methasone)$/, 'Glucocorticoids'],
  [/(?:azepam|azolam)$/, 'Benzodiazepines'],
  [/(?:piprazole|peridone)$/, 'Antipsychotic Agents'],
  [/coxib$/, 'Cyclooxygenase 2 Inhibitors'],
  [/profen$/, 'Anti-Inflammatory Agents, Non-Steroidal'],
];

/** The MeSH class heading (by name) of a medicine named by its stem, or null: `cohortly:medicine-named:olaparib` -> PARP inhibitors. */
export function stemClassName(conceptId: string): string | null {
  if (!conceptId.startsWith(NAMED_MEDICINE_PREFIX)) return null;
  const word = conceptId.slice(NAMED_MEDICINE_PREFIX.length);
  return STEM_CLASSES.find(([stem]) => stem.test(word))?.[1] ?? null;
}
