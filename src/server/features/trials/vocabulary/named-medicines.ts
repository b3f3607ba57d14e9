/**
 * A medicine the vocabulary does not name, known by its nonproprietary name's stem (decision 272). MeSH 2024 keeps newer
 * medicines as supplementary records, whose names the shared data lacks ("cabozantinib", "olaparib", "enzalutamide"), while
 * the WHO INN / USAN stems say what such a word is: "-tinib" a kinase inhibitor, "-mab" a monoclonal antibody, "-parib" a
 * PARP inhibitor. A word of at least seven letters ending in one of these stems, that no concept of the text already
 * covers, is read as that one medicine (never its class: the word names one medicine, whose class the stem only suggests).
 * Stems that end ordinary words ("-cept" of "concept", "-terol" of "cholesterol", "-tidine" of "thymidine") are left out.
 * Each stem is written once, with the MeSH class heading it names by the stem definitions (decision 317), or null: a
 * stem whose class MeSH lacks, or that names several ("-lidomide", "-relin"), places the medicine in no class; "-mab"
 * stays with decision 282 (a denial of every biologic clears an exclusion of one, and fails no inclusion).
 */
const STEM_CLASSES: ReadonlyArray<readonly [string, string | null]> = [
  ['mab', null],
  ['tinib', 'Tyrosine Kinase Inhibitors'],
  ['anib', 'Angiogenesis Inhibitors'],
  ['rafenib', 'Protein Kinase Inhibitors'],
  ['ciclib', 'Protein Kinase Inhibitors'],
  ['parib', 'Poly(ADP-ribose) Polymerase Inhibitors'],
  ['lisib', 'Phosphoinositide-3 Kinase Inhibitors'],
  ['zomib', 'Proteasome Inhibitors'],
  ['degib', null],
  ['inostat', 'Histone Deacetylase Inhibitors'],
  ['lutamide', 'Androgen Receptor Antagonists'],
  ['lidomide', null],
  ['platin', 'Antineoplastic Agents'],
  ['taxel', null],
  ['rubicin', null],
  ['tecan', 'Topoisomerase I Inhibitors'],
  ['citabine', 'Antimetabolites, Antineoplastic'],
  ['arabine', 'Antimetabolites, Antineoplastic'],
  ['mustine', 'Antineoplastic Agents'],
  ['trexed', 'Antimetabolites, Antineoplastic'],
  ['sartan', 'Angiotensin II Type 1 Receptor Blockers'],
  ['pril', 'Angiotensin-Converting Enzyme Inhibitors'],
  ['olol', 'Adrenergic beta-Antagonists'],
  ['dipine', 'Calcium Channel Blockers'],
  ['prazole', 'Proton Pump Inhibitors'],
  ['floxacin', 'Fluoroquinolones'],
  ['gliflozin', 'Sodium-Glucose Transporter 2 Inhibitors'],
  ['gliptin', 'Dipeptidyl-Peptidase IV Inhibitors'],
  ['glutide', 'Glucagon-Like Peptide-1 Receptor Agonists'],
  ['glitazar', null],
  ['glitazone', null],
  ['xaban', 'Factor Xa Inhibitors'],
  ['gatran', 'Antithrombins'],
  ['vastatin', 'Hydroxymethylglutaryl-CoA Reductase Inhibitors'],
  ['dronate', null],
  ['grastim', null],
  ['poetin', null],
  ['cillin', 'Penicillins'],
  ['cycline', 'Tetracyclines'],
  ['azepam', 'Benzodiazepines'],
  ['azolam', 'Benzodiazepines'],
  ['triptan', null],
  ['setron', null],
  ['lukast', null],
  ['vir', 'Antiviral Agents'],
  ['vudine', 'Antiviral Agents'],
  ['conazole', 'Antifungal Agents'],
  ['fungin', 'Antifungal Agents'],
  ['piprazole', 'Antipsychotic Agents'],
  ['peridone', 'Antipsychotic Agents'],
  ['thromycin', null],
  ['sonide', 'Glucocorticoids'],
  ['methasone', 'Glucocorticoids'],
  ['parin', null],
  ['relin', null],
  ['relix', null],
  ['oxetine', null],
  ['pramine', null],
  ['coxib', 'Cyclooxygenase 2 Inhibitors'],
  ['profen', 'Anti-Inflammatory Agents, Non-Steroidal'],
];
const STEMS = STEM_CLASSES.map(([stem]) => stem).join('|');
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
 * The MeSH class heading (by name) of a medicine named by its stem, or null (decision 317): "olaparib" is a PARP
 * inhibitor, "pitavastatin" a statin, so a rule of the class reaches the medicine as it reaches those MeSH files.
 */
export function stemClassName(conceptId: string): string | null {
  if (!conceptId.startsWith(NAMED_MEDICINE_PREFIX)) return null;
  const word = conceptId.slice(NAMED_MEDICINE_PREFIX.length);
  // The longest stem the word ends in: "brexpiprazole" is an antipsychotic ("-piprazole"), not an acid reducer ("-prazole").
  let found: readonly [string, string | null] | undefined;
  for (const row of STEM_CLASSES) if (word.endsWith(row[0]) && row[0].length > (found?.[0].length ?? 0)) found = row;
  return found?.[1] ?? null;
}
