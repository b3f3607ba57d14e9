import type { CriterionKind, CriterionRule, DraftCriterion } from '../../../contract/trials';

/**
 * The deterministic rules engine for eligibility text (see docs/decisions/005-trial-auto-generation.md).
 *
 * Splitting: headings ("Inclusion Criteria:", "Key Exclusion Criteria", "Specific inclusion criteria for X:")
 * switch the section; every top-level list item ("1.", "*", "-", "•", "a)") or paragraph becomes one
 * criterion; deeper-indented sub-bullets and continuation lines stay with their parent item ("\n- sub").
 * A heading that says more than "(Key) Inclusion Criteria", and a short lead-in line ending with ":"
 * ("Medical conditions:"), is kept as a label prefixed to the items under it, so no text is lost.
 *
 * Rules: a rule states what an eligible candidate must satisfy, whatever the kind of the criterion it came
 * from (an exclusion "eGFR < 45" gives {lab eGFR >= 45}; an exclusion "pregnant" gives {pregnancy allowed
 * false}). `needsReview` is false only when the criterion says nothing but the rule.
 */

export interface SplitCriterion {
  kind: CriterionKind;
  text: string;
}

/** ClinicalTrials.gov texts are Markdown: `\>`, `\<`, `\[`, `\*`... are escapes. */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!<>~|=^])/g, '$1');
}

const MARKER = /^(\s*)(?:[*+]|[-–]|[•·▪◦●○]|\d{1,3}[.)](?!\d)|\(\d{1,3}\)|[a-zA-Z][.)]|\([a-zA-Z]\)|(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)[.)])(?:\s+|(?<=[•·▪◦●○])(?=\S))(.*)$/;

interface Line {
  indent: number;
  marker: boolean;
  text: string;
}

function readLine(raw: string): Line {
  const expanded = raw.replace(/\t/g, '    ');
  const match = MARKER.exec(expanded);
  if (match && match[2].trim()) return { indent: match[1].length, marker: true, text: collapse(match[2]) };
  const indent = expanded.length - expanded.trimStart().length;
  return { indent, marker: false, text: collapse(expanded) };
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

const PLAIN_HEADING = /^(?:key|main|major|general|other|additional|principal)?\s*(inclusion|exclusion)s?(?:\s+criteri(?:a|on))?\s*$/i;
const NOTE_WORDS = /\b(apply|applies|may|could|might|must|following|satisfy|meet|meets|will|are|is)\b/i;

/**
 * A section heading: which kind it opens, the label to keep (when it says more than the plain heading) and
 * any text after its colon ("Exclusion Criteria:Patients with" -> lead-in "Patients with").
 */
export function readHeading(text: string): { kind: CriterionKind; label: string | null; rest: string | null } | null {
  const colon = text.indexOf(':');
  const head = collapse(colon >= 0 ? text.slice(0, colon) : text);
  const rest = colon >= 0 ? collapse(text.slice(colon + 1)) : '';
  const plain = PLAIN_HEADING.exec(head);
  if (plain) return { kind: plain[1].toLowerCase() as CriterionKind, label: null, rest: rest || null };
  const inclusion = /\binclusion\b/i.test(head);
  const exclusion = /\bexclusion\b/i.test(head);
  if (inclusion === exclusion || !/criteri/i.test(head)) return null;
  if (wordCount(head) > 12 || NOTE_WORDS.test(head)) return null;
  if (rest && colon >= 0 && wordCount(rest) > 8) return null;
  return { kind: inclusion ? 'inclusion' : 'exclusion', label: head, rest: rest || null };
}

/** Splits eligibility text into ordered inclusion and exclusion items; nothing but headings is dropped. */
export function splitCriteria(eligibilityText: string): SplitCriterion[] {
  const lines = unescapeMarkdown(eligibilityText).replace(/\r\n?/g, '\n').split('\n');
  const items: Array<SplitCriterion & { indent: number; listItem: boolean }> = [];
  let kind: CriterionKind = 'inclusion';
  let label: string | null = null;
  /** The item that sub-bullets and continuation lines join, with the indent of its marker. */
  let current: (typeof items)[number] | null = null;
  let blankBefore = false;

  const withLabel = (text: string) => (label ? `${label}: ${text}` : text);
  const push = (text: string, indent: number, listItem: boolean) => {
    current = { kind, text: withLabel(text), indent, listItem };
    items.push(current);
  };
  const nextMeaningful = (from: number) => {
    for (let index = from + 1; index < lines.length; index++) if (lines[index].trim()) return readLine(lines[index]);
    return null;
  };

  lines.forEach((raw, index) => {
    if (!raw.trim()) {
      blankBefore = true;
      return;
    }
    const line = readLine(raw);
    const heading = readHeading(line.text);
    if (heading) {
      kind = heading.kind;
      label = heading.label;
      current = null;
      if (heading.rest) {
        if (heading.rest.endsWith(':') || nextMeaningful(index)?.marker) label = label ? `${label}: ${heading.rest}` : heading.rest;
        else push(heading.rest, line.indent, false);
      }
      blankBefore = false;
      return;
    }
    const parent: (typeof items)[number] | null = current;
    if (line.marker) {
      // Sub-bullets stay with their item; a paragraph keeps only the list it introduces ("...following:").
      if (parent && line.indent > parent.indent && (parent.listItem || parent.text.endsWith(':'))) parent.text += `\n- ${line.text}`;
      else push(line.text, line.indent, true);
    } else if (parent && (line.indent > parent.indent || !blankBefore) && !isLeadIn(line, index)) {
      // A continuation of the item above: indented under it, or wrapped onto the next line.
      parent.text += parent.text.endsWith('\n') ? line.text : ` ${line.text}`;
    } else if (isLeadIn(line, index)) {
      // "Medical conditions:" over a list: a short label for the items below it.
      label = line.text.replace(/:\s*$/, '');
      current = null;
    } else {
      // A plain paragraph is its own criterion.
      push(line.text, line.indent, false);
    }
    blankBefore = false;
  });

  function isLeadIn(line: Line, index: number) {
    return !line.marker && line.text.endsWith(':') && wordCount(line.text) <= 8 && Boolean(nextMeaningful(index)?.marker);
  }

  return items.map(({ kind: itemKind, text }) => ({ kind: itemKind, text: text.trim() }));
}

// ---- rules from the text ----

export interface TextRule {
  rule: CriterionRule | null;
  needsReview: boolean;
}

/** "7.0" -> 7, "6,5" -> 6.5, "50,000" / "100.000" (thousands) -> 50000 / 100000. */
const toNumber = (value: string) => (/^\d{1,3}(?:[.,]\d{3})+$/.test(value) ? Number(value.replace(/[.,]/g, '')) : Number(value.replace(',', '.')));
const NUMBER_WITH_THOUSANDS = String.raw`(\d{1,3}(?:[.,]\d{3})+(?!\d)|\d+(?:[.,]\d+)?)`;

/** Words that say nothing beyond the rule itself: a criterion of only these and the rule is "plain". */
const FILLER = new Set(
  `a an the of at to in on or and with who whose is are be must have has having patient patients participant participants subject subjects
  adult adults male female males females men women man woman people person aged age ages year years yr yrs old inclusive between from
  screening level levels value values than equal greater less more higher lower above below over under older younger least most
  body mass index bmi kg m2 kg/m2 m² kg/m² time signing informed consent icf yoa including both sexes either gender sex all
  range within within-range documented known current currently defined as`.split(/\s+/).filter(Boolean),
);

/** Whether the text, once the matched part is taken out, is only filler words. */
function isPlain(text: string, matched: string, maxLeft = 1): boolean {
  const left = text
    .replace(matched, ' ')
    .toLowerCase()
    .split(/[^a-z0-9/²]+/)
    .filter((word) => word && !FILLER.has(word) && !/^\d+$/.test(word));
  return left.length <= maxLeft && !/\n/.test(text);
}

type Comparator = '<' | '<=' | '>' | '>=' | '=';
const COMPARATORS: Record<string, Comparator> = {
  '<': '<',
  '<=': '<=',
  '≤': '<=',
  '=<': '<=',
  '>': '>',
  '>=': '>=',
  '≥': '>=',
  '=>': '>=',
  '=': '=',
};
const INVERSE: Record<Comparator, Comparator | null> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '=': null };
const COMPARATOR = String.raw`(<=|>=|=<|=>|≤|≥|<|>|=)`;

/** Ages: "18 years of age or older", "aged 18 to 65", "≥ 18 years", "between 21 and 75 years", "under 18 years old". */
export function readAgeRule(kind: CriterionKind, text: string): TextRule | null {
  const lower = text.toLowerCase();
  if (!/\b(years?|yrs?|yoa|aged?|old|older|younger)\b/.test(lower)) return null;
  if (/\b(months?|weeks?|days?)\b/.test(lower) && !/\bage|aged\b/.test(lower)) return null;
  // Not an age: "history of X for 5 years", "diagnosed 2 years ago", "within 5 years".
  if (/\b(expectancy|survival|follow-up|smok\w*|pack)\b/.test(lower)) return null;
  if (/\b(within|ago|prior|duration|history|since|for at least|for more than|last|past|previous)\b/.test(lower) && !/\bage[ds]?\b|years? old|yoa/.test(lower)) return null;

  let min: number | null = null;
  let max: number | null = null;
  let strict = false;
  let matched = '';
  const outside = new RegExp(String.raw`(?:<|under|younger than|below)\s*(\d{1,3})\s*(?:years?)?\s*(?:of age\s*|old\s*)?or\s*(?:>|over|older than|above)\s*(\d{1,3})`, 'i').exec(text);
  if (outside) {
    // "Age < 18 or > 70 years": outside a range, so eligible people are within it (in an exclusion).
    if (kind !== 'exclusion') return { rule: null, needsReview: true };
    return { rule: { type: 'age', minYears: Number(outside[1]), maxYears: Number(outside[2]) }, needsReview: !isPlain(text, outside[0]) };
  }
  const range =
    new RegExp(String.raw`(?:aged?|between|from)?\s*(\d{1,3})\s*(?:years?\s*)?(?:-|–|to|and)\s*(\d{1,3})\s*(?:years?|yrs?)?(?:\s*(?:of age|old))?`, 'i').exec(text);
  const minWords = new RegExp(String.raw`(\d{1,3})\s*(?:years?|yrs?|yoa)?\s*(?:of age|old)?\s*(?:or|and)\s*(?:older|over|above)`, 'i').exec(text);
  const symbol = new RegExp(String.raw`(?:age[ds]?\s*(?:of\s*)?)?${COMPARATOR}\s*(\d{1,3})\s*(?:years?|yrs?|yoa)`, 'i').exec(text);
  const symbolAge = new RegExp(String.raw`\bage[ds]?\s*${COMPARATOR}\s*(\d{1,3})`, 'i').exec(text);
  const words = new RegExp(String.raw`\b(at least|over|older than|above|under|younger than|below|less than)\s*(\d{1,3})\s*(?:years?|yrs?|yoa)`, 'i').exec(text);

  if (range && /years?|yrs?|age|old/i.test(range[0]) && Number(range[1]) < Number(range[2]) && Number(range[2]) <= 130) {
    min = Number(range[1]);
    max = Number(range[2]);
    matched = range[0];
  } else if (minWords) {
    min = Number(minWords[1]);
    matched = minWords[0];
  } else if (symbol || symbolAge) {
    const found = (symbol ?? symbolAge)!;
    const comparator = COMPARATORS[found[1]];
    const value = Number(found[2]);
    matched = found[0];
    if (comparator === '>=' || comparator === '>') [min, strict] = [value, comparator === '>'];
    else if (comparator === '<=' || comparator === '<') [max, strict] = [value, comparator === '<'];
    else return null;
  } else if (words) {
    const value = Number(words[2]);
    matched = words[0];
    const phrase = words[1].toLowerCase();
    if (phrase === 'at least') min = value;
    else if (['over', 'older than', 'above'].includes(phrase)) [min, strict] = [value, true];
    else [max, strict] = [value, true];
  } else {
    return null;
  }

  if (kind === 'exclusion') {
    // "under 18 years old" excludes the young: eligible people are at least 18. Only one-sided ages invert.
    if (min !== null && max !== null) return { rule: null, needsReview: true };
    [min, max] = [max, min];
    strict = false;
  }
  return { rule: { type: 'age', minYears: min, maxYears: max }, needsReview: strict || !isPlain(text, matched) };
}

/** Lab measures read from text, by how criteria name them, to the name kept in the rule. */
const MEASURES: Array<[RegExp, string, string | undefined]> = [
  [/\b(?:body mass index|bmi)\b/i, 'BMI', 'kg/m2'],
  [/\begfr\b|\bestimated glomerular filtration rate\b/i, 'eGFR', 'mL/min/1.73m2'],
  [/\bcreatinine clearance\b|\bcrcl\b/i, 'creatinine clearance', 'mL/min'],
  [/\b(?:hba1c|a1c|hemoglobin a1c|glycated ha?emoglobin)\b/i, 'HbA1c', '%'],
  [/\b(?:ldl-c|ldl cholesterol|ldl)\b/i, 'LDL-C', undefined],
  [/\balt\b|\balanine aminotransferase\b/i, 'ALT', undefined],
  [/\bast\b|\baspartate aminotransferase\b/i, 'AST', undefined],
  [/\b(?:total )?bilirubin\b/i, 'bilirubin', undefined],
  [/\bserum creatinine\b|\bcreatinine\b/i, 'creatinine', undefined],
  [/\b(?:ha?emoglobin|hgb|hb)\b/i, 'hemoglobin', undefined],
  [/\bplatelets?(?: count)?\b/i, 'platelets', undefined],
  [/\b(?:absolute neutrophil count|anc)\b/i, 'ANC', undefined],
  [/\bqtcf?\b/i, 'QTc', 'ms'],
  [/\bfev1\b/i, 'FEV1', undefined],
  [/\bcrp\b|\bc-reactive protein\b/i, 'CRP', undefined],
  [/\bfasting (?:plasma )?glucose\b/i, 'fasting glucose', undefined],
  [/\btriglycerides?\b/i, 'triglycerides', undefined],
  [/\bejection fraction\b|\blvef\b/i, 'LVEF', '%'],
];
const UNIT = String.raw`\s*(%|kg\s*\/\s*m\s*(?:2|²)|ml\s*\/\s*min(?:\s*\/\s*1[.,]73\s*m\s*(?:2|²))?|mg\s*\/\s*dl|mmol\s*\/\s*l|mmol\s*\/\s*mol|µmol\s*\/\s*l|umol\s*\/\s*l|g\s*\/\s*dl|g\s*\/\s*l|ms(?:ec)?|x\s*10\^?9\s*\/\s*l|\/\s*mm3|x\s*uln|×\s*uln|times\s*(?:the\s*)?uln)?`;

const normalizeUnit = (unit: string | undefined, fallback: string | undefined) => {
  if (!unit) return fallback;
  const compact = unit.replace(/\s+/g, '').replace('²', '2').replace('×', 'x');
  if (/^kg\/m2$/i.test(compact)) return 'kg/m2';
  if (/^ml\/min\/1[.,]73m2$/i.test(compact)) return 'mL/min/1.73m2';
  if (/^ml\/min$/i.test(compact)) return 'mL/min';
  if (/uln$/i.test(compact)) return 'x ULN';
  return compact;
};

/** BMI and lab thresholds: "BMI between 18.5 and 35 kg/m2", "BMI ≥ 30", "eGFR < 45 mL/min", "HbA1c ≥ 7.0%". */
export function readLabRule(kind: CriterionKind, text: string): TextRule | null {
  for (const [pattern, measure, defaultUnit] of MEASURES) {
    const name = pattern.exec(text);
    if (!name) continue;
    const after = text.slice(name.index + name[0].length);
    const between = new RegExp(String.raw`^.{0,40}?\b(?:between|from)\s*${NUMBER_WITH_THOUSANDS}${UNIT}\s*(?:and|to|-|–)\s*${NUMBER_WITH_THOUSANDS}${UNIT}`, 'i').exec(after);
    const dash = new RegExp(String.raw`^[^<>≤≥=\d]{0,40}?(?<![\d.])${NUMBER_WITH_THOUSANDS}\s*(?:-|–|to)\s*${NUMBER_WITH_THOUSANDS}${UNIT}`, 'i').exec(after);
    const compare = new RegExp(String.raw`^[^<>≤≥=\d]{0,40}?${COMPARATOR}\s*${NUMBER_WITH_THOUSANDS}${UNIT}`, 'i').exec(after);
    const wordCompare = new RegExp(
      String.raw`^[^<>≤≥=\d]{0,40}?\b(greater than or equal to|less than or equal to|at least|at most|greater than|more than|higher than|above|over|less than|lower than|below|under|not exceeding)\s*${NUMBER_WITH_THOUSANDS}${UNIT}`,
      'i',
    ).exec(after);
    const matched = between?.[0] ?? compare?.[0] ?? wordCompare?.[0] ?? dash?.[0];
    if (!matched) continue;
    const numbers = (between ?? compare ?? wordCompare ?? dash)!;
    let rule: CriterionRule;
    if (between || (!compare && !wordCompare && dash)) {
      const [low, lowUnit, high, highUnit] = between ? [numbers[1], numbers[2], numbers[3], numbers[4]] : [numbers[1], undefined, numbers[2], numbers[3]];
      if (toNumber(low) >= toNumber(high)) continue;
      const unit = normalizeUnit(highUnit ?? lowUnit, defaultUnit);
      if (kind === 'exclusion') return { rule: null, needsReview: true };
      rule = { type: 'lab', measure, comparator: 'between', value: toNumber(low), upperValue: toNumber(high), ...(unit ? { unit } : {}) };
    } else {
      const comparator: Comparator = compare
        ? COMPARATORS[compare[1]]
        : ({
            'greater than or equal to': '>=',
            'less than or equal to': '<=',
            'at least': '>=',
            'at most': '<=',
            'greater than': '>',
            'more than': '>',
            'higher than': '>',
            above: '>',
            over: '>',
            'less than': '<',
            'lower than': '<',
            below: '<',
            under: '<',
            'not exceeding': '<=',
          } as Record<string, Comparator>)[numbers[1].toLowerCase()];
      const required = kind === 'exclusion' ? INVERSE[comparator] : comparator;
      if (!required) return { rule: null, needsReview: true };
      const unit = normalizeUnit(numbers[3], defaultUnit);
      rule = { type: 'lab', measure, comparator: required, value: toNumber(numbers[2]), ...(unit ? { unit } : {}) };
    }
    const relative = rule.type === 'lab' && rule.unit === 'x ULN';
    return { rule, needsReview: relative || (rule.type === 'lab' && !rule.unit) || !isPlain(text.replace(name[0], ' '), matched, 1) };
  }
  return null;
}

const PREGNANCY_WORDS = new Set(
  `pregnant pregnancy pregnancies breastfeeding breast feeding lactating lactation nursing mothers mother possibly possible
  potentially planning plan plans become becoming get getting currently lady ladies girls`.split(/\s+/).filter(Boolean),
);
const PREGNANCY = /\b(pregnan\w*|breast[- ]?feeding|lactating|lactation|nursing)\b/i;

/** "Pregnant or breastfeeding" in an exclusion: pregnancy not allowed. */
export function readPregnancyRule(kind: CriterionKind, text: string): TextRule | null {
  if (kind !== 'exclusion' || !PREGNANCY.test(text)) return null;
  const left = text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word && !FILLER.has(word) && !PREGNANCY_WORDS.has(word));
  return { rule: { type: 'pregnancy', allowed: false }, needsReview: left.length > 0 || /\n/.test(text) };
}

/** The rule a criterion's text states plainly, or none (a person reads it). */
export function readTextRule(kind: CriterionKind, text: string): TextRule {
  return readAgeRule(kind, text) ?? readLabRule(kind, text) ?? readPregnancyRule(kind, text) ?? { rule: null, needsReview: true };
}

/** Splits the text and reads each item's rule: the eligibility part of a draft trial. */
export function parseCriteria(eligibilityText: string): DraftCriterion[] {
  return splitCriteria(eligibilityText).map((item) => {
    const { rule, needsReview } = readTextRule(item.kind, item.text);
    return { kind: item.kind, text: item.text, rule, ruleSource: rule ? 'text' : null, needsReview };
  });
}
