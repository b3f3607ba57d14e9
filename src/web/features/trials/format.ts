import { durationWords } from '../../../contract/durations';
import { QUALIFIER_WORDS } from '../../../contract/qualifiers';
import type { CriterionRule, DraftSite, RuleSource, Trial, TrialStatus } from '../../../contract/trials';
import { STATUS_LABELS } from './trial-option';

export { shortTrialTitle } from './title';
export { STATUS_LABELS, STATUS_TONES, TRIAL_SEARCH_LABEL, TRIAL_SEARCH_PLACEHOLDER, trialOption } from './trial-option';

/** The button label of a lifecycle move. */
export function transitionLabel(from: TrialStatus, to: TrialStatus): string {
  if (to === 'recruiting') return from === 'paused' ? 'Resume recruiting' : 'Start recruiting';
  if (to === 'paused') return 'Pause recruiting';
  if (to === 'closed') return 'Close trial';
  return `Move to ${STATUS_LABELS[to].toLowerCase()}`;
}

export const PHASE_CHOICES = ['Early Phase 1', 'Phase 1', 'Phase 1/Phase 2', 'Phase 2', 'Phase 2/Phase 3', 'Phase 3', 'Phase 4'] as const;

export const RULE_SOURCE_LABELS: Record<RuleSource, string> = {
  structured: 'Parsed from record fields',
  text: 'Parsed from text',
  manual: 'Set by hand',
  llm: 'Suggested by the language model',
};

const number = (value: number) => (Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100));
const years = (value: number) => `${number(value)} ${value === 1 ? 'year' : 'years'}`;
const COMPARATOR_WORDS: Record<string, string> = { '<': '<', '<=': '≤', '>': '>', '>=': '≥', '=': '=' };

/**
 * A rule in words, as what an eligible candidate must satisfy (an exclusion "eGFR < 45" is stored, and read
 * out, as "eGFR ≥ 45 mL/min").
 */
export function ruleInWords(rule: CriterionRule): string {
  switch (rule.type) {
    case 'age': {
      const { minYears: min, maxYears: max } = rule;
      if (min != null && max != null) return `Must be ${number(min)}–${years(max)}`;
      if (min != null) return `Must be at least ${years(min)}`;
      if (max != null) return `Must be at most ${years(max)}`;
      return 'Any age';
    }
    case 'sex':
      return rule.sex === 'all' ? 'Any sex' : `Must be ${rule.sex}`;
    case 'condition': {
      const lasting = [
        rule.duration?.minDays ? `at least ${durationWords(rule.duration.minDays).en}` : '',
        rule.duration?.maxDays ? `less than ${durationWords(rule.duration.maxDays).en}` : '',
      ].filter(Boolean);
      const when =
        (rule.within ? ` in the last ${number(rule.within.value)} ${rule.within.unit}` : rule.history ? ' (ever)' : '') +
        (lasting.length ? ` for ${lasting.join(' and ')}` : '');
      const codes = rule.concepts
        ?.map((concept) => concept.icd10)
        .filter(Boolean)
        .join(', ');
      // Qualifiers in the clinical words staff read: "Must not have osteoporosis (severe)".
      const qualified = rule.qualifiers?.length ? ` (${rule.qualifiers.map((qualifier) => QUALIFIER_WORDS[qualifier].label).join(', ')})` : '';
      // "Another cancer" (decision 305): the trial's own condition is not what it excludes.
      const another = rule.otherThanTrialCondition ? " besides the trial's condition" : '';
      return `${rule.present ? 'Must have' : 'Must not have'} ${rule.condition}${another}${qualified}${otherThan(rule.except)}${when}${codes ? ` [ICD-10-CM ${codes}]` : ''}`;
    }
    case 'medication': {
      const when = rule.within ? ` in the last ${number(rule.within.value)} ${rule.within.unit}` : rule.history ? ' (ever)' : '';
      const except = otherThan(rule.except);
      return rule.taking ? `Must be taking ${rule.medication}${except}${when}` : `Must not have taken ${rule.medication}${except}${when || ' now'}`;
    }
    case 'lab': {
      // A rating's scale in words: "leg pain score ≥ 4 out of 10".
      const unit = rule.relativeTo
        ? ` × ${rule.relativeTo}`
        : rule.unit
          ? rule.unit === '%'
            ? '%'
            : /^\/\d+$/.test(rule.unit)
              ? ` out of ${rule.unit.slice(1)}`
              : ` ${rule.unit}`
          : '';
      if (rule.comparator === 'between') {
        return `${rule.measure} between ${number(rule.value)} and ${rule.upperValue === undefined ? '?' : number(rule.upperValue)}${unit}`;
      }
      return `${rule.measure} ${COMPARATOR_WORDS[rule.comparator] ?? rule.comparator} ${number(rule.value)}${unit}`;
    }
    case 'pregnancy':
      return rule.allowed ? 'Pregnancy allowed' : 'Must not be pregnant';
    case 'healthy_volunteers':
      return rule.accepted ? 'Healthy volunteers accepted' : 'Healthy volunteers not accepted';
    case 'contraception':
      return rule.required ? 'Must use contraception' : 'Contraception not required';
    case 'smoking':
      return rule.smoker ? 'Must be a current smoker' : 'Must not be a current smoker';
    case 'performance_status': {
      if (rule.min != null && rule.max != null) return `${rule.scale} ${number(rule.min)}–${number(rule.max)}`;
      if (rule.min != null) return `${rule.scale} ≥ ${number(rule.min)}`;
      return `${rule.scale} ≤ ${rule.max == null ? '?' : number(rule.max)}`;
    }
    case 'site_judgement':
      return SITE_JUDGEMENT_LABELS[rule.reason];
  }
}

export const SITE_JUDGEMENT_LABELS: Record<Extract<CriterionRule, { type: 'site_judgement' }>['reason'], string> = {
  consent_capacity: 'Site checks: able to consent',
  investigator_judgement: "Site checks: investigator's judgement",
  protocol_compliance: 'Site checks: able to follow the protocol',
  protocol: 'Site checks: other protocol criteria',
  permission: 'Only allows something: refuses no one',
};

export function ageRangeInWords(min: number | null, max: number | null): string {
  if (min != null && max != null) return `${number(min)}–${years(max)}`;
  if (min != null) return `${years(min)} and over`;
  if (max != null) return `Up to ${years(max)}`;
  return 'Any age';
}

export const SEX_LABELS: Record<Trial['sex'], string> = { all: 'All', female: 'Female', male: 'Male' };

export function siteAddress(site: DraftSite): string {
  return [site.address, site.city, site.region, site.postalCode, site.country].filter(Boolean).join(', ') || '—';
}

/** "Asthma, COPD" -> ["Asthma", "COPD"] (empties and repeats dropped). */
export function splitConditions(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
}

/** What a rule excepts, in its names: " other than asthma" (decision 202). */
function otherThan(except: ReadonlyArray<{ name: string }> | undefined): string {
  return except?.length ? ` other than ${except.map((concept) => concept.name).join(' or ')}` : '';
}
