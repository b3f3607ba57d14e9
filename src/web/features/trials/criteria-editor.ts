import {
  ConditionDurationSchema,
  CriterionRuleSchema,
  durationAmount,
  durationDays,
  SITE_JUDGEMENT_REASONS as SITE_REASONS,
  type ConditionQualifier,
  type DurationUnit,
  type CriterionInput,
  type CriterionKind,
  type CriterionRule,
  type RuleSource,
  type TrialCriterion,
} from '../../../contract/trials';

export const RULE_TYPES = [
  'age',
  'sex',
  'condition',
  'medication',
  'lab',
  'pregnancy',
  'healthy_volunteers',
  'contraception',
  'smoking',
  'performance_status',
  'site_judgement',
] as const;
export type RuleType = (typeof RULE_TYPES)[number];
export const RULE_TYPE_LABELS: Record<RuleType, string> = {
  age: 'Age range',
  sex: 'Sex',
  condition: 'Condition present or absent',
  medication: 'Medication taken or not',
  lab: 'Lab value or measurement',
  pregnancy: 'Pregnancy',
  healthy_volunteers: 'Healthy volunteers',
  contraception: 'Contraception required',
  smoking: 'Smoking status',
  performance_status: 'Performance status (ECOG / Karnofsky)',
  site_judgement: 'Site judgement (staff decide)',
};
export const SITE_JUDGEMENT_REASONS = SITE_REASONS;
export const COMPARATORS = ['<', '<=', '>', '>=', '=', 'between'] as const;
export const COMPARATOR_LABELS: Record<(typeof COMPARATORS)[number], string> = {
  '<': 'less than (<)',
  '<=': 'at most (≤)',
  '>': 'more than (>)',
  '>=': 'at least (≥)',
  '=': 'equal to (=)',
  between: 'between',
};

/** Every field of every rule type, as typed (strings), so switching type keeps what was entered. */
export interface RuleFields {
  minYears: string;
  maxYears: string;
  sex: 'female' | 'male' | 'all';
  condition: string;
  present: 'yes' | 'no';
  /** How long the condition has lasted (decision 045): at least / less than, each a number and a unit. */
  durationMin: string;
  durationMinUnit: DurationUnit;
  durationMax: string;
  durationMaxUnit: DurationUnit;
  /** Plain-words qualifiers asked with the condition (decision 077). */
  qualifiers: ConditionQualifier[];
  medication: string;
  taking: 'yes' | 'no';
  measure: string;
  comparator: (typeof COMPARATORS)[number];
  value: string;
  upperValue: string;
  unit: string;
  allowed: 'yes' | 'no';
  accepted: 'yes' | 'no';
  smoker: 'yes' | 'no';
  scale: 'ECOG' | 'Karnofsky';
  minScore: string;
  maxScore: string;
  reason: (typeof SITE_REASONS)[number];
}

export const EMPTY_FIELDS: RuleFields = {
  minYears: '',
  maxYears: '',
  sex: 'all',
  condition: '',
  present: 'no',
  durationMin: '',
  durationMinUnit: 'months',
  durationMax: '',
  durationMaxUnit: 'months',
  qualifiers: [],
  medication: '',
  taking: 'no',
  measure: '',
  comparator: '>=',
  value: '',
  upperValue: '',
  unit: '',
  allowed: 'no',
  accepted: 'no',
  smoker: 'no',
  scale: 'ECOG',
  minScore: '',
  maxScore: '',
  reason: 'investigator_judgement',
};

export interface EditableCriterion {
  /** Stable React key (the id, or a local one for new criteria). */
  key: string;
  id?: string;
  kind: CriterionKind;
  text: string;
  ruleType: RuleType | '';
  fields: RuleFields;
  ruleSource: RuleSource | null;
  needsReview: boolean;
  /** The cohort the criterion applies to (read from the text), kept as it is. */
  population: string | null;
  /** The rule as loaded: kept whole (span, concepts, time window) while its fields are unchanged. */
  original: CriterionRule | null;
}

const numberText = (value: number | null | undefined) => (value == null ? '' : String(value));

export function fieldsOf(rule: CriterionRule | null): RuleFields {
  const fields = { ...EMPTY_FIELDS };
  if (!rule) return fields;
  switch (rule.type) {
    case 'age':
      return { ...fields, minYears: numberText(rule.minYears), maxYears: numberText(rule.maxYears) };
    case 'sex':
      return { ...fields, sex: rule.sex };
    case 'condition': {
      const min = rule.duration?.minDays ? durationAmount(rule.duration.minDays) : null;
      const max = rule.duration?.maxDays ? durationAmount(rule.duration.maxDays) : null;
      return {
        ...fields,
        condition: rule.condition,
        present: rule.present ? 'yes' : 'no',
        ...(min ? { durationMin: String(min.value), durationMinUnit: min.unit } : {}),
        ...(max ? { durationMax: String(max.value), durationMaxUnit: max.unit } : {}),
        qualifiers: rule.qualifiers ? [...rule.qualifiers] : [],
      };
    }
    case 'medication':
      return { ...fields, medication: rule.medication, taking: rule.taking ? 'yes' : 'no' };
    case 'lab':
      return {
        ...fields,
        measure: rule.measure,
        comparator: rule.comparator,
        value: numberText(rule.value),
        upperValue: numberText(rule.upperValue),
        unit: rule.unit ?? '',
      };
    case 'pregnancy':
      return { ...fields, allowed: rule.allowed ? 'yes' : 'no' };
    case 'healthy_volunteers':
      return { ...fields, accepted: rule.accepted ? 'yes' : 'no' };
    case 'contraception':
      return fields;
    case 'smoking':
      return { ...fields, smoker: rule.smoker ? 'yes' : 'no' };
    case 'performance_status':
      return { ...fields, scale: rule.scale, minScore: numberText(rule.min), maxScore: numberText(rule.max) };
    case 'site_judgement':
      return { ...fields, reason: rule.reason };
  }
}

let counter = 0;
export const newKey = () => `new-${Date.now().toString(36)}-${++counter}`;

export function toEditable(criterion: TrialCriterion): EditableCriterion {
  return {
    key: criterion.id,
    id: criterion.id,
    kind: criterion.kind,
    text: criterion.text,
    ruleType: criterion.rule?.type ?? '',
    fields: fieldsOf(criterion.rule),
    ruleSource: criterion.ruleSource,
    needsReview: criterion.needsReview,
    population: criterion.population ?? null,
    original: criterion.rule,
  };
}

export type FieldErrors = Partial<Record<keyof RuleFields | 'text' | 'ruleType', string>>;

const parseNumber = (text: string): number | null | 'invalid' => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : 'invalid';
};

/** The rule the fields describe, or the errors that keep it from being one. */
export function ruleOf(criterion: EditableCriterion): { rule: CriterionRule | null; errors: FieldErrors } {
  const { fields } = criterion;
  const errors: FieldErrors = {};
  let rule: CriterionRule | null = null;
  switch (criterion.ruleType) {
    case '':
      break;
    case 'age': {
      const min = parseNumber(fields.minYears);
      const max = parseNumber(fields.maxYears);
      if (min === 'invalid' || (typeof min === 'number' && (min < 0 || min > 150))) errors.minYears = 'Enter an age from 0 to 150 years, or leave empty';
      if (max === 'invalid' || (typeof max === 'number' && (max < 0 || max > 150))) errors.maxYears = 'Enter an age from 0 to 150 years, or leave empty';
      if (min === null && max === null) errors.minYears = 'Enter a minimum or a maximum age';
      if (typeof min === 'number' && typeof max === 'number' && min > max) errors.maxYears = 'Maximum age must not be below minimum age';
      if (!errors.minYears && !errors.maxYears) rule = { type: 'age', minYears: min as number | null, maxYears: max as number | null };
      break;
    }
    case 'sex':
      rule = { type: 'sex', sex: fields.sex };
      break;
    case 'condition': {
      if (!fields.condition.trim()) errors.condition = 'Name the condition';
      const duration = durationOf(fields, errors);
      if (!errors.condition && duration !== 'invalid') {
        // The same condition keeps what the form does not show (its concepts, "ever", time window, exception, "another" cancer, source span).
        const kept = criterion.original?.type === 'condition' && criterion.original.condition === fields.condition.trim() ? criterion.original : null;
        rule = {
          type: 'condition',
          condition: fields.condition.trim(),
          present: fields.present === 'yes',
          ...(kept?.concepts ? { concepts: kept.concepts } : {}),
          ...(kept?.history ? { history: true } : {}),
          ...(kept?.within ? { within: kept.within } : {}),
          ...(kept?.except ? { except: kept.except } : {}),
          ...(kept?.otherThanTrialCondition ? { otherThanTrialCondition: true } : {}),
          ...(kept?.span ? { span: kept.span } : {}),
          ...(duration ? { duration } : {}),
          ...(fields.qualifiers.length ? { qualifiers: fields.qualifiers } : {}),
        };
      }
      break;
    }
    case 'medication':
      if (!fields.medication.trim()) errors.medication = 'Name the medication';
      else rule = { type: 'medication', medication: fields.medication.trim(), taking: fields.taking === 'yes' };
      break;
    case 'lab': {
      if (!fields.measure.trim()) errors.measure = 'Name the measure, e.g. eGFR';
      const value = parseNumber(fields.value);
      if (value === null || value === 'invalid') errors.value = 'Enter a number';
      let upper: number | null | 'invalid' = null;
      if (fields.comparator === 'between') {
        upper = parseNumber(fields.upperValue);
        if (upper === null || upper === 'invalid') errors.upperValue = 'Enter the upper number';
        else if (typeof value === 'number' && upper < value) errors.upperValue = 'The upper value must not be below the lower value';
      }
      if (Object.keys(errors).length === 0) {
        rule = {
          type: 'lab',
          measure: fields.measure.trim(),
          comparator: fields.comparator,
          value: value as number,
          ...(fields.comparator === 'between' ? { upperValue: upper as number } : {}),
          ...(fields.unit.trim() ? { unit: fields.unit.trim() } : {}),
        };
      }
      break;
    }
    case 'pregnancy':
      rule = { type: 'pregnancy', allowed: fields.allowed === 'yes' };
      break;
    case 'healthy_volunteers':
      rule = { type: 'healthy_volunteers', accepted: fields.accepted === 'yes' };
      break;
    case 'contraception':
      rule = { type: 'contraception', required: true };
      break;
    case 'smoking':
      rule = { type: 'smoking', smoker: fields.smoker === 'yes' };
      break;
    case 'performance_status': {
      const min = parseNumber(fields.minScore);
      const max = parseNumber(fields.maxScore);
      if (min === 'invalid') errors.minScore = 'Enter a number, or leave empty';
      if (max === 'invalid') errors.maxScore = 'Enter a number, or leave empty';
      if (min === null && max === null) errors.minScore = 'Enter a lowest or a highest score';
      if (!errors.minScore && !errors.maxScore)
        rule = { type: 'performance_status', scale: fields.scale, min: min as number | null, max: max as number | null };
      break;
    }
    case 'site_judgement':
      rule = { type: 'site_judgement', reason: fields.reason };
      break;
  }
  // Unchanged fields: keep the loaded rule whole (its source span, concepts and time window).
  if (rule && criterion.original && criterion.original.type === rule.type && JSON.stringify(fieldsOf(criterion.original)) === JSON.stringify(fields))
    rule = criterion.original;
  if (!criterion.text.trim()) errors.text = 'Enter the criterion’s text';
  else if (criterion.text.trim().length > 4000) errors.text = 'The text must be at most 4000 characters';
  if (rule && !CriterionRuleSchema.safeParse(rule).success) return { rule: null, errors: { ...errors, ruleType: 'This rule is not complete' } };
  return { rule, errors };
}

const positive = (text: string): number | null | 'invalid' => {
  const value = parseNumber(text);
  return typeof value === 'number' && !(value > 0 && value <= 100_000) ? 'invalid' : value;
};

/** A condition's duration from its fields, checked by the contract's schema; null: none; 'invalid': see `errors`. */
function durationOf(fields: RuleFields, errors: FieldErrors): { minDays?: number; maxDays?: number } | null | 'invalid' {
  const min = positive(fields.durationMin);
  const max = positive(fields.durationMax);
  if (min === 'invalid') errors.durationMin = 'Enter a number above 0, or leave empty';
  if (max === 'invalid') errors.durationMax = 'Enter a number above 0, or leave empty';
  if (min === 'invalid' || max === 'invalid') return 'invalid';
  if (min === null && max === null) return null;
  const duration = {
    ...(min !== null ? { minDays: durationDays(min, fields.durationMinUnit) } : {}),
    ...(max !== null ? { maxDays: durationDays(max, fields.durationMaxUnit) } : {}),
  };
  const checked = ConditionDurationSchema.safeParse(duration);
  if (checked.success) return duration;
  errors.durationMax = checked.error.issues[0]?.message ?? 'Check the duration';
  return 'invalid';
}

/** The PATCH body's criteria: the whole ordered list, existing ones with their id. */
export function toInputs(criteria: EditableCriterion[]): CriterionInput[] {
  return criteria.map((criterion) => {
    const { rule } = ruleOf(criterion);
    return {
      ...(criterion.id ? { id: criterion.id } : {}),
      kind: criterion.kind,
      text: criterion.text.trim(),
      rule,
      ruleSource: rule ? (criterion.ruleSource ?? 'manual') : null,
      needsReview: criterion.needsReview,
      population: criterion.population,
    };
  });
}

/** Inclusion criteria first, then exclusion, each in the order shown. */
export function ordered(criteria: EditableCriterion[]): EditableCriterion[] {
  return [...criteria.filter((criterion) => criterion.kind === 'inclusion'), ...criteria.filter((criterion) => criterion.kind === 'exclusion')];
}
