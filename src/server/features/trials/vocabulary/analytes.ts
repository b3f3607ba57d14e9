import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { tokenize } from './normalize';

/**
 * The analytes a lab value may be named by (decision 304): MeSH 2024's ions, hormones, enzymes, lipids, blood proteins,
 * antigens and blood tests, compiled by scripts/build-analytes.ts into analytes-2024.json.gz (loaded once, on first use),
 * and the few short forms laboratories write that MeSH does not carry. A name is an analyte only where a value follows
 * it; the lab readers (criteria/analyte-labs.ts, matching/note-analytes.ts) decide that.
 */

export interface Analyte {
  /** The MeSH descriptor, or a product id ("cohortly:...") for an analyte MeSH lacks. */
  ui: string;
  /** The heading in plain words ("prostate-specific antigen", "thyrotropin"): the lab rule's and fact's measure. */
  name: string;
  /**
   * `medicine`: a medicine MeSH does not file as a body substance ("digoxin", "vitamin D"), an analyte only with a level
   * word ("serum digoxin level"); `bodyMedicine`: a body substance also given as a medicine ("calcium", "estradiol"),
   * never read with a percentage (a cream's or solution's strength); `substance`: anything else.
   */
  kind: 'medicine' | 'bodyMedicine' | 'substance';
}

export interface AnalyteMention {
  analyte: Analyte;
  start: number;
  end: number;
  /** The unit a value written without one is in, for the short forms whose unit is one in every laboratory. */
  bareUnit?: string;
}

/**
 * Short forms laboratories and criteria write that MeSH carries no term for (MeSH has "IgE", not "PSA" or "TSH"), each to
 * the one descriptor it abbreviates, written as shown (case matters: "Na" is sodium, "na" is not applicable). Left out
 * on purpose: "Ca" (cancer: "CA 19-9"), "Mg" (milligrams), "K" and "Cl" (words and units elsewhere), "free T4" (not total
 * thyroxine). "NT-proBNP" is another molecule than BNP, with other values: an analyte of its own (below). Sodium's bare value is in mmol/L (= mEq/L, a
 * monovalent ion) in every laboratory: "Na 128" is read with that unit.
 */
const SHORT_FORMS: ReadonlyArray<{ pattern: RegExp; ui: string; bareUnit?: string }> = [
  { pattern: /\bPSA\b/g, ui: 'D017430' },
  { pattern: /\bTSH\b/g, ui: 'D013972' },
  { pattern: /\bNa\+?(?![\w+])/g, ui: 'D012964', bareUnit: 'mmol/L' },
  { pattern: /\b[Hh]ct\b|\bHCT\b/g, ui: 'D006400' },
  { pattern: /\bLDH\b/g, ui: 'D007770' },
  { pattern: /\bC[PK]K\b|\bCK\b/g, ui: 'D003402' },
  { pattern: /\bCEA\b/g, ui: 'D002272' },
  { pattern: /\bAFP\b/g, ui: 'D000509' },
  { pattern: /(?:\b|β-?|beta-?)h?CG\b|\bhCG\b/g, ui: 'D006063' },
  { pattern: /\bBNP\b(?!-)/g, ui: 'D020097' },
  { pattern: /\bHDL(?:-C)?\b(?!-)/g, ui: 'D008076' },
  { pattern: /\bGGT\b|\bγ-?GT\b/g, ui: 'D005723' },
  { pattern: /\bFSH\b/g, ui: 'D005640' },
  { pattern: /\bLH\b/g, ui: 'D007986' },
  { pattern: /\bi?PTH\b/g, ui: 'D010281' },
  { pattern: /\bAMH\b/g, ui: 'D054304' },
  { pattern: /\bCA[- ]?125\b/gi, ui: 'D018394' },
];

/**
 * Analytes MeSH 2024 has no descriptor for, each with the reason and the forms laboratories write (decision 335).
 * NT-proBNP, the N-terminal fragment of BNP's prohormone, is a heart failure trial's commonest lab and has its own
 * thresholds (often 300-1,000 pg/mL, several times BNP's): MeSH files it only as a supplementary concept. Its long
 * form is read before "B-type natriuretic peptide" inside it, so it is never BNP; LOINC's name ("Natriuretic peptide.B
 * prohormone N-Terminal") is read too, so a FHIR Observation gives the same fact.
 */
const PRODUCT_ANALYTES: ReadonlyArray<{ analyte: Analyte; pattern: RegExp }> = [
  {
    analyte: { ui: 'cohortly:nt-probnp', name: 'NT-proBNP', kind: 'substance' },
    pattern:
      /\bNT[\s-]?pro[\s-]?BNP\b|\bN[\s-]?terminal[\s-]+pro[\s-]?(?:hormone\s+(?:of\s+)?)?(?:B[\s-]?type|brain)\s+natriuretic\s+peptide\b|\bN[\s-]?terminal\s+(?:pro[\s-]?)?BNP\b|\bnatriuretic\s+peptide\.?\s*B\s+prohormone(?:\s+N-?terminal)?/gi,
  },
];

interface AnalyteTable {
  byUi: Map<string, Analyte>;
  byKey: Map<string, Analyte>;
  longest: number;
}

let table: AnalyteTable | null = null;

const KINDS: Record<string, Analyte['kind']> = { m: 'medicine', p: 'bodyMedicine', '': 'substance' };

function analyteTable(): AnalyteTable {
  if (table) return table;
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'analytes-2024.json.gz');
  const artifact = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { analytes: string[][] };
  const byUi = new Map<string, Analyte>();
  const byKey = new Map<string, Analyte>();
  let longest = 1;
  for (const [ui, name, flags, ...terms] of artifact.analytes) {
    const analyte: Analyte = { ui, name, kind: KINDS[flags] ?? 'substance' };
    byUi.set(ui, analyte);
    for (const term of terms) {
      const tokens = tokenize(term);
      const key = tokens.map((token) => token.key).join(' ');
      // A term shared by two descriptors names neither for certain.
      if (byKey.has(key) && byKey.get(key)!.ui !== ui) byKey.set(key, { ui: '', name: '', kind: 'substance' });
      else byKey.set(key, analyte);
      longest = Math.max(longest, tokens.length);
    }
  }
  for (const [key, analyte] of byKey) if (!analyte.ui) byKey.delete(key);
  for (const { analyte } of PRODUCT_ANALYTES) byUi.set(analyte.ui, analyte);
  table = { byUi, byKey, longest };
  return table;
}

/** The analyte a MeSH descriptor is, when it is one. */
export function analyteOf(ui: string): Analyte | undefined {
  return analyteTable().byUi.get(ui);
}

/** Every analyte the text names, longest first at each place, in order; names that overlap keep the first. */
export function findAnalytes(text: string): AnalyteMention[] {
  const { byKey, byUi, longest } = analyteTable();
  const found: AnalyteMention[] = [];
  for (const { pattern, ui, bareUnit } of SHORT_FORMS)
    for (const match of text.matchAll(pattern)) {
      const analyte = byUi.get(ui);
      if (analyte) found.push({ analyte, start: match.index, end: match.index + match[0].length, ...(bareUnit ? { bareUnit } : {}) });
    }
  for (const { analyte, pattern } of PRODUCT_ANALYTES)
    for (const match of text.matchAll(pattern)) found.push({ analyte, start: match.index, end: match.index + match[0].length });
  const tokens = tokenize(text);
  for (let at = 0; at < tokens.length; at++) {
    for (let size = Math.min(longest, tokens.length - at); size >= 1; size--) {
      const words = tokens.slice(at, at + size);
      // Words of one name stand next to each other ("prostate-specific antigen", "CD4+ cell count"), never across a
      // bracket or comma.
      if (words.some((token, index) => index > 0 && !/^\+?[\s-]*$/.test(text.slice(words[index - 1].end, token.start)))) continue;
      const analyte = byKey.get(words.map((token) => token.key).join(' '));
      if (!analyte) continue;
      found.push({ analyte, start: words[0].start, end: words[size - 1].end });
      at += size - 1;
      break;
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  return found.filter((mention, index) => !found.slice(0, index).some((other) => other.start < mention.end && mention.start < other.end));
}
