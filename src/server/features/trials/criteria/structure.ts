import type { CriterionKind } from '../../../../contract/trials';

/**
 * The structure of eligibility text (docs/decisions/021-criteria-reading.md): sections, nested lists, cohort
 * headings, lead-ins, placeholders and footnotes, read into one item per criterion.
 *
 * - Headings ("Inclusion Criteria:", "Key Exclusion Criteria") switch the section. A heading that names a
 *   group ("Specific inclusion criteria for healthy participants:") sets the items' `population`; one that
 *   qualifies them otherwise ("Radiological Exclusion Criteria") is kept as a label.
 * - Cohort headings ("Healthy controls", "Asthmatics:", "Part B only", "[Expansion Part]") are not criteria:
 *   they set `population` on the items under them, until the next heading or the next section.
 * - A list item ending in ":" with children becomes one criterion per child, carrying the parent's words as
 *   context ("Any of the following ocular conditions: glaucoma"). A parent that is a bare lead-in ("The
 *   following criteria must be satisfied:") adds nothing. Children stay joined to their parent when they are
 *   exceptions ("except for:"), conditions ("provided they meet:") or must all hold together in an exclusion.
 *   Alternatives in an inclusion ("at least one of the following:") are split but flagged `alternative`.
 * - Placeholders ("-", "None", "n/a", "Not applicable") and lead-in sentences are dropped; a footnote
 *   ("* Acceptable methods are ...", "† ...") is attached to the item that carries its marker.
 */

export interface SplitCriterion {
  kind: CriterionKind;
  text: string;
  /** The cohort or subgroup the criterion applies to; absent: everybody. */
  population?: string;
  /** One of several alternatives ("at least one of the following"): not required by itself. */
  alternative?: boolean;
}

/** ClinicalTrials.gov texts are Markdown: `\>`, `\<`, `\[`, `\*`... are escapes. */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!<>~|=^])/g, '$1');
}

const MARKER =
  /^(\s*)(?:[*+]|[-–]|[•·▪◦●○]|\d{1,3}[.)](?!\d)|\(\d{1,3}\)|[a-zA-Z][.)]|\([a-zA-Z]\)|(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)[.)]|\((?:i|ii|iii|iv|v|vi|vii|viii|ix|x)\))(?:\s+|(?<=[•·▪◦●○])(?=\S))(.*)$/;

interface Line {
  indent: number;
  marker: boolean;
  text: string;
}

export const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

function readLine(raw: string): Line {
  const expanded = raw.replace(/\t/g, '    ');
  const match = MARKER.exec(expanded);
  if (match?.[2].trim()) return { indent: match[1].length, marker: true, text: collapse(match[2]) };
  const indent = expanded.length - expanded.trimStart().length;
  return { indent, marker: false, text: collapse(expanded) };
}

const PLAIN_HEADING = /^(?:key|main|major|general|other|additional|principal)?\s*(inclusion|exclusion)s?(?:\s+criteri(?:a|on))?\s*$/i;
const NOTE_WORDS = /\b(apply|applies|may|could|might|must|following|satisfy|meet|meets|will|are|is)\b/i;

/**
 * A section heading: which kind it opens, the label to keep (when it says more than the plain heading), the
 * population it names ("... criteria for healthy participants") and any text after its colon.
 */
export function readHeading(text: string): { kind: CriterionKind; label: string | null; population: string | null; rest: string | null } | null {
  const colon = text.indexOf(':');
  const head = collapse(colon >= 0 ? text.slice(0, colon) : text);
  const rest = colon >= 0 ? collapse(text.slice(colon + 1)) : '';
  const plain = PLAIN_HEADING.exec(head);
  if (plain) return { kind: plain[1].toLowerCase() as CriterionKind, label: null, population: null, rest: rest || null };
  const inclusion = /\binclusion\b/i.test(head);
  const exclusion = /\bexclusion\b/i.test(head);
  if (inclusion === exclusion || !/criteri/i.test(head)) return null;
  if (wordCount(head) > 12 || NOTE_WORDS.test(head)) return null;
  if (rest && colon >= 0 && wordCount(rest) > 8) return null;
  const kind: CriterionKind = inclusion ? 'inclusion' : 'exclusion';
  const group = /\bcriteri(?:a|on)\s+(?:for|in)\s+(.+)$/i.exec(head);
  if (group) return { kind, label: null, population: group[1].trim(), rest: rest || null };
  return { kind, label: head, population: null, rest: rest || null };
}

/** "-", "None", "n/a", "Not applicable", "<!-- -->": nothing to read. */
export function isPlaceholder(text: string): boolean {
  const value = collapse(text.replace(/<!--.*?-->/g, ' '));
  if (!/[a-z0-9]/i.test(value)) return true;
  return /^(?:none|nil|n\/?a|not applicable|not specified|none specified|no (?:inclusion|exclusion) criteria|no additional criteria)\.?$/i.test(value);
}

/** A sentence that only introduces a list: "Participants are eligible ... if all of the following criteria apply:". */
export function isGenericLeadIn(text: string): boolean {
  const value = collapse(text).replace(/:\s*$/, '');
  if (/^(?:the\s+)?following(?:\s+criteria)?(?:\s+(?:must|should)\s+(?:be\s+)?(?:satisfied|met|apply|fulfilled))?$/i.test(value)) return true;
  if (
    /\b(?:following|below)\s+(?:inclusion\s+|exclusion\s+)?criteri(?:a|on)\b/i.test(value) &&
    !/\b(?:with|have|has|had|diagnos\w*|history)\b.*\bfollowing\b.*\bcriteri/i.test(value)
  )
    return true;
  if (/\b(?:reasons are|criteria (?:are|apply)|must (?:meet|satisfy|fulfil+)(?: all)?(?: of)?(?: the)?(?: following)?)$/i.test(value)) return true;
  return /^(?:all|each|any) of the following(?: (?:apply|must apply|must be met))?$/i.test(value);
}

const POPULATION_WORDS =
  /\b(?:cohorts?|parts?|arms?|groups?|controls?|volunteers?|subjects?|participants?|patients?|smokers?|non-?smokers?|asthmatics?|only|populations?|sub-?study|substud(?:y|ies)|expansion|escalation|adults?|children|adolescents?|women|men|females?|males?|donors?|recipients?|caregivers?)\b/i;
const TOPIC_WORDS =
  /\b(?:type of|characteristics|medical|conditions?|therap(?:y|ies)|experience|diagnostic|assessments?|laborator(?:y|ies)|prior|concomitant|other|consent|weight|age|criteri(?:a|on)|removing|history|procedures?|related)\b/i;
const VERB_WORDS =
  /\b(?:must|are|is|was|were|will|have|has|had|should|can|could|may|be|been|being|meet|meets|apply|applies|receive|received|who|which|that)\b/i;

/** "Healthy controls", "Asthmatics:", "Part B only", "[Expansion Part]", "Patients without adjacent degenerative disc (HD):". */
export function readPopulationHeading(text: string): string | null {
  const value = collapse(text.replace(/^\[(.*)\]$/, '$1')).replace(/\s*:\s*$/, '');
  if (!value || wordCount(value) > 8 || /[.;,]$/.test(value) || /[<>≤≥=]|\d{2,}/.test(value)) return null;
  if (VERB_WORDS.test(value)) return null;
  const forGroup = /\bfor\s+((?:participants?|patients?|subjects?|people|those)\b.*)$/i.exec(value);
  if (forGroup) return forGroup[1];
  if (!POPULATION_WORDS.test(value)) return null;
  if (TOPIC_WORDS.test(value) && !/^(?:patients?|participants?|subjects?)\s+(?:with|without)\b/i.test(value)) return null;
  return value;
}

/** A short topic heading without a colon ("Age", "Medical Conditions", "Obesity-related") over a list. */
function isTopicHeading(text: string): boolean {
  const value = collapse(text);
  if (!value || /[.;,:]$/.test(value) || /\d|[<>≤≥=]/.test(value) || wordCount(value) > 7 || VERB_WORDS.test(value)) return false;
  const words = value.split(' ');
  return words.every((word) => /^[A-Z[(]/.test(word) || /^(?:of|and|or|for|the|to|with|in|on|at)$/.test(word)) || /-related$/i.test(words[0]);
}

/** A footnote line: "* Acceptable ...", "† ...", "(*) ...", "¹ ...", "Note: ..." under an item. */
const FOOTNOTE = /^(\*{1,3}(?=\S)|†|‡|§|¶|\(\*\)|[¹²³⁴⁵])\s*(.+)$/;

interface Node {
  kind: CriterionKind;
  text: string;
  indent: number;
  listItem: boolean;
  label: string | null;
  /** Text from a heading's colon that starts each item ("Patients with"). */
  leadIn: string | null;
  population: string | null;
  children: Node[];
  parent: Node | null;
}

const EXCEPTION =
  /\b(?:except(?:ion)?s?|unless|other than|excluding|with the exception|provided|as long as|if they|if the|in whom|such as|including|e\.g\.|for example|defined as(?! meeting))\b/i;
const ALTERNATIVES = /\b(?:(?:one|any|either)\s+(?:\(\d\)\s+)?of|at least (?:one|two|\d)(?:\s+\(\d\))?(?:\s+of)?|or more of)\b/i;
const ALL_OF = /\b(?:all|both|each)\s+of\b/i;

/**
 * A numbered list written on one line ("1. The patient has ... 2. The patient has ... 3. ..."): one item per number, as
 * if each stood on its own line (hand-check Q). Only a run of at least three numbers counting up by one, each followed by
 * a capital, is a list; "grade 2. The" or "2-3 2." alone never split anything. Text before the run (an item whose own
 * number was the line's marker) is an item too.
 */
export function splitInlineList(text: string): string[] {
  const numbers = [...text.matchAll(/(?<=^|\s)(\d{1,2})\.\s+(?=[A-Z(])/g)].map((match) => ({
    value: Number(match[1]),
    start: match.index,
    end: match.index + match[0].length,
  }));
  let best: typeof numbers = [];
  for (let from = 0; from < numbers.length; from++) {
    const run = [numbers[from]];
    for (const next of numbers.slice(from + 1)) if (next.value === run.at(-1)!.value + 1) run.push(next);
    if (run.length > best.length) best = run;
  }
  if (best.length < 3) return [text];
  const prefix = text.slice(0, best[0].start).trim();
  const items = best.map((number, index) => text.slice(number.end, best[index + 1]?.start ?? text.length).trim()).filter((item) => /[a-z]/i.test(item));
  // "Any of the following: 1. ... 2. ...": a lead-in gives the items their context (a bare one adds nothing), as a parent
  // line ending in ":" does.
  if (prefix.endsWith(':')) return isGenericLeadIn(prefix) ? items : items.map((item) => `${prefix} ${item}`);
  return /[a-z]/i.test(prefix) ? [prefix, ...items] : items;
}

/** Splits eligibility text into ordered inclusion and exclusion criteria. */
export function splitCriteria(eligibilityText: string): SplitCriterion[] {
  const lines = unescapeMarkdown(eligibilityText).replace(/\r\n?/g, '\n').split('\n');
  const roots: Node[] = [];
  let kind: CriterionKind = 'inclusion';
  let label: string | null = null;
  let leadIn: string | null = null;
  let population: string | null = null;
  /** Open list items, innermost last. */
  let stack: Node[] = [];
  let blankBefore = false;
  const footnotes: Footnote[] = [];

  const nextMeaningful = (from: number) => {
    for (let index = from + 1; index < lines.length; index++) if (lines[index].trim()) return readLine(lines[index]);
    return null;
  };
  const newNode = (text: string, indent: number, listItem: boolean, parent: Node | null): Node => {
    const node: Node = { kind, text, indent, listItem, label, leadIn, population, children: [], parent };
    if (parent) parent.children.push(node);
    else roots.push(node);
    return node;
  };
  const last = () => stack.at(-1) ?? null;

  lines.forEach((raw, index) => {
    if (!raw.trim()) {
      blankBefore = true;
      return;
    }
    const line = readLine(raw);
    const next = nextMeaningful(index);
    const heading = readHeading(line.text);
    if (heading) {
      kind = heading.kind;
      label = heading.label;
      population = heading.population;
      leadIn = null;
      stack = [];
      blankBefore = false;
      if (heading.rest) {
        if (isGenericLeadIn(heading.rest) || isPlaceholder(heading.rest)) {
          // "Exclusion Criteria: any of the following" — nothing to keep.
        } else if (!heading.rest.endsWith(':') && next?.marker && wordCount(heading.rest) <= 4) leadIn = heading.rest;
        else if (heading.rest.endsWith(':') || next?.marker) label = label ? `${label}: ${heading.rest.replace(/:$/, '')}` : heading.rest.replace(/:$/, '');
        else stack = [newNode(heading.rest, line.indent, false, null)];
      }
      return;
    }
    if (isPlaceholder(line.text)) return;

    const footnote = !line.marker || raw.trimStart().startsWith('*') ? FOOTNOTE.exec(raw.trim()) : null;
    if (footnote && !/^\*\s/.test(raw.trim()) && roots.length) {
      footnotes.push({ marker: footnote[1], text: collapse(footnote[2]), after: last() ?? roots.at(-1) ?? null });
      blankBefore = false;
      return;
    }

    const top = last();
    // "Study Participants: Participants will be excluded ... if any of the following criteria apply:": a cohort heading
    // with its lead-in on one line.
    const colon = line.text.indexOf(': ');
    const group = line.marker
      ? null
      : (readPopulationHeading(line.text) ??
        (colon > 0 && line.text.endsWith(':') && isGenericLeadIn(line.text.slice(colon + 2)) ? readPopulationHeading(line.text.slice(0, colon)) : null));
    // "Index Participants" over "Only 1 index participant ... if all of the following criteria apply:" and its list: the
    // heading names the cohort even with a lead-in paragraph between it and the items (hand-check Q).
    const overLeadIn = Boolean(next && !next.marker && next.text.endsWith(':') && isGenericLeadIn(next.text));
    if (group && next && (next.marker || line.text.endsWith(':') || overLeadIn) && (!top || blankBefore || line.indent <= top.indent)) {
      population = group;
      label = null;
      leadIn = null;
      stack = [];
      blankBefore = false;
      return;
    }
    if (!line.marker && next?.marker && isTopicHeading(line.text) && (!top || blankBefore)) {
      // "Medical Conditions" / "Age" over a list: a topic, not a criterion; the items keep their own words.
      label = null;
      leadIn = null;
      stack = [];
      blankBefore = false;
      return;
    }

    if (line.marker) {
      // The innermost open item this one nests under: deeper-indented, or under a paragraph ending with ":".
      while (stack.length) {
        const candidate = stack.at(-1)!;
        if (line.indent > candidate.indent && (candidate.listItem || candidate.text.endsWith(':'))) break;
        if (
          !candidate.listItem &&
          candidate.text.endsWith(':') &&
          line.indent >= candidate.indent &&
          candidate.children.every((child) => child.indent === line.indent)
        )
          break;
        stack.pop();
      }
      const parent = last();
      stack.push(newNode(line.text, line.indent, true, parent));
    } else if (top && (line.indent > top.indent || !blankBefore) && !isLeadIn(line, next)) {
      // A continuation of the item above: indented under it, or wrapped onto the next line.
      top.text += ` ${line.text}`;
    } else if (isLeadIn(line, next)) {
      const text = line.text.replace(/:\s*$/, '');
      stack = [];
      if (isGenericLeadIn(line.text)) {
        label = null;
        leadIn = null;
      } else if (wordCount(text) <= 8) {
        // "Medical conditions:" over a list: a short label for the items below it.
        label = text;
        leadIn = null;
      } else {
        // A longer sentence introducing a list: a parent whose words give the items their context.
        stack = [newNode(line.text, line.indent, false, null)];
      }
    } else {
      // A plain paragraph is its own criterion.
      stack = [newNode(line.text, line.indent, false, null)];
    }
    blankBefore = false;
  });

  function isLeadIn(line: Line, next: Line | null) {
    return !line.marker && line.text.endsWith(':') && Boolean(next?.marker);
  }

  return attachAndFlatten(roots, footnotes);
}

type Footnote = { marker: string; text: string; after: Node | null };

/** The tree as criteria: footnotes attached to the item they annotate, each leaf with its lead-ins' words, lists kept together where they say "all of" or "except". */
function attachAndFlatten(roots: Node[], footnotes: Footnote[]): SplitCriterion[] {
  // Footnotes: to the item whose text carries the marker, else to the item above the footnote.
  const all: Node[] = [];
  const walk = (node: Node) => {
    all.push(node);
    node.children.forEach(walk);
  };
  roots.forEach(walk);
  for (const footnote of footnotes) {
    const marker = footnote.marker.replace(/[()]/g, '');
    const owner = all.find((node) => node.text.includes(marker) && !node.text.startsWith(marker)) ?? footnote.after;
    if (owner) owner.text += `\n${footnote.marker} ${footnote.text}`;
  }

  const out: SplitCriterion[] = [];
  const emit = (node: Node, text: string, alternative: boolean) => {
    const labelled = node.leadIn ? `${node.leadIn} ${text}` : node.label ? `${node.label}: ${text}` : text;
    const item: SplitCriterion = { kind: node.kind, text: labelled.trim() };
    if (node.population) item.population = node.population;
    if (alternative) item.alternative = true;
    out.push(item);
  };
  const joined = (node: Node): string => node.text + node.children.map((child) => `\n- ${joined(child).replace(/\n- /g, '\n  - ')}`).join('');
  const flatten = (node: Node, context: string | null, alternative: boolean) => {
    const withContext = (text: string) => (context ? `${context}${/:$/.test(context) ? ' ' : ': '}${text}` : text);
    if (!node.children.length) {
      if (!isPlaceholder(node.text) && !(isGenericLeadIn(node.text) && node.text.endsWith(':')))
        for (const item of splitInlineList(node.text)) emit(node, withContext(item), alternative);
      return;
    }
    const introduces = node.text.endsWith(':') || /\bfollowing\b/i.test(node.text);
    const keepTogether = !introduces || EXCEPTION.test(node.text) || (node.kind === 'exclusion' && ALL_OF.test(node.text));
    if (keepTogether) {
      emit(node, context ? `${context}: ${joined(node)}` : joined(node), alternative);
      return;
    }
    const bare = isGenericLeadIn(node.text);
    const childContext = bare ? context : collapse((context ? `${context}: ` : '') + node.text.replace(/:\s*$/, ''));
    const alternatives = alternative || (node.kind === 'inclusion' && ALTERNATIVES.test(node.text));
    flattenAll(node.children, childContext, alternatives);
  };
  /** Siblings in order; an item ending in ":" without children introduces the sibling right after it. */
  const flattenAll = (nodes: Node[], context: string | null, alternative: boolean) => {
    let pending: string | null = null;
    nodes.forEach((node, index) => {
      const introducer = !node.children.length && node.text.endsWith(':') && index + 1 < nodes.length && nodes[index + 1].kind === node.kind;
      if (introducer) {
        if (!isGenericLeadIn(node.text)) pending = collapse((context ? `${context}: ` : '') + node.text.replace(/:\s*$/, ''));
        return;
      }
      flatten(node, pending ?? context, alternative);
      pending = null;
    });
  };
  flattenAll(roots, null, false);
  return out;
}
