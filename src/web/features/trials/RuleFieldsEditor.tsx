import { DURATION_UNITS } from '../../../contract/durations';
import { CONDITION_QUALIFIERS, QUALIFIER_GROUPS, QUALIFIER_WORDS } from '../../../contract/qualifiers';
import { Field, Input, Select } from '../../components/ui';
import { COMPARATOR_LABELS, COMPARATORS, SITE_JUDGEMENT_REASONS, type EditableCriterion, type FieldErrors, type RuleFields } from './criteria-editor';
import { SITE_JUDGEMENT_LABELS } from './format';

interface RuleFieldsProps {
  criterion: EditableCriterion;
  errors: FieldErrors;
  onFields: (patch: Partial<RuleFields>) => void;
}

/** The id of one of a criterion's fields (its label and the error summary point at it). */
export const fieldIdOf = (criterion: EditableCriterion) => (name: string) => `criterion-${criterion.key}-${name}`;

/** The fields of a criterion's structured rule, for its rule type. */
export function RuleFieldsEditor(props: RuleFieldsProps) {
  const { criterion, onFields } = props;
  const id = fieldIdOf(criterion);
  const { fields } = criterion;
  switch (criterion.ruleType) {
    case '':
      return null;
    case 'age':
      return (
        <>
          <RuleInput {...props} name="minYears" label="Minimum age (years)" decimal />
          <RuleInput {...props} name="maxYears" label="Maximum age (years)" decimal />
        </>
      );
    case 'sex':
      return (
        <Field className="content-start" label="Eligible sex">
          <Select id={id('sex')} value={fields.sex} onChange={(event) => onFields({ sex: event.target.value as RuleFields['sex'] })}>
            <option value="all">Any sex</option>
            <option value="female">Female only</option>
            <option value="male">Male only</option>
          </Select>
        </Field>
      );
    case 'condition':
      return <ConditionFields {...props} />;
    case 'medication':
      return (
        <>
          <RuleInput {...props} name="medication" label="Medication" />
          <YesNoField {...props} name="taking" label="An eligible candidate" yes="Must be taking it" no="Must not be taking it" />
        </>
      );
    case 'lab':
      return <LabFields {...props} />;
    case 'pregnancy':
      return <YesNoField {...props} name="allowed" label="Pregnancy" yes="Allowed" no="Not allowed" />;
    case 'healthy_volunteers':
      return <YesNoField {...props} name="accepted" label="Healthy volunteers" yes="Accepted" no="Not accepted" />;
    case 'contraception':
      return null;
    case 'smoking':
      return <YesNoField {...props} name="smoker" label="Current smoker" yes="Must be" no="Must not be" />;
    case 'performance_status':
      return <PerformanceStatusFields {...props} />;
    case 'site_judgement':
      return (
        <Field className="content-start" label="Staff decide">
          <Select id={id('reason')} value={fields.reason} onChange={(event) => onFields({ reason: event.target.value as RuleFields['reason'] })}>
            {SITE_JUDGEMENT_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {SITE_JUDGEMENT_LABELS[reason]}
              </option>
            ))}
          </Select>
        </Field>
      );
  }
}

/** A rule's text or number field, with its error. */
function RuleInput({
  criterion,
  errors,
  onFields,
  name,
  label,
  decimal,
  placeholder,
}: RuleFieldsProps & {
  name: 'minYears' | 'maxYears' | 'condition' | 'medication' | 'measure' | 'value' | 'upperValue' | 'unit' | 'minScore' | 'maxScore';
  label: string;
  decimal?: boolean;
  placeholder?: string;
}) {
  return (
    <Field className="content-start" label={label} error={errors[name]}>
      <Input
        id={fieldIdOf(criterion)(name)}
        inputMode={decimal ? 'decimal' : undefined}
        placeholder={placeholder}
        value={criterion.fields[name]}
        onChange={(event) => onFields({ [name]: event.target.value })}
      />
    </Field>
  );
}

/** A yes/no rule field: has the condition, takes the medication, pregnancy allowed... */
function YesNoField({
  criterion,
  onFields,
  name,
  label,
  yes,
  no,
}: RuleFieldsProps & { name: 'present' | 'taking' | 'allowed' | 'accepted' | 'smoker'; label: string; yes: string; no: string }) {
  const id = fieldIdOf(criterion);
  const { fields } = criterion;
  return (
    <Field className="content-start" label={label}>
      <Select id={id(name)} value={fields[name]} onChange={(event) => onFields({ [name]: event.target.value as 'yes' | 'no' })}>
        <option value="yes">{yes}</option>
        <option value="no">{no}</option>
      </Select>
    </Field>
  );
}

/** A number and its unit, one labelled group: "at least [3] [months]". */
function DurationField({
  criterion,
  errors,
  onFields,
  name,
  unit,
  label,
}: RuleFieldsProps & { name: 'durationMin' | 'durationMax'; unit: 'durationMinUnit' | 'durationMaxUnit'; label: string }) {
  const id = fieldIdOf(criterion);
  const { fields } = criterion;
  return (
    <div className="grid content-start gap-1.5">
      <Field label={label} error={errors[name]}>
        <Input id={id(name)} inputMode="decimal" value={fields[name]} onChange={(event) => onFields({ [name]: event.target.value })} />
      </Field>
      <Select
        id={id(unit)}
        aria-label={`${label}: unit`}
        value={fields[unit]}
        onChange={(event) => onFields({ [unit]: event.target.value as RuleFields['durationMinUnit'] })}
      >
        {DURATION_UNITS.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** A condition: its name, present or absent, for how long, and the qualifiers asked with it. */
function ConditionFields(props: RuleFieldsProps) {
  const { criterion, onFields } = props;
  const { fields } = criterion;
  return (
    <>
      <RuleInput {...props} name="condition" label="Condition" />
      <YesNoField {...props} name="present" label="An eligible candidate" yes="Must have it" no="Must not have it" />
      <DurationField {...props} name="durationMin" unit="durationMinUnit" label="Has had it for at least (optional)" />
      <DurationField {...props} name="durationMax" unit="durationMaxUnit" label="Has had it for less than (optional)" />
      <fieldset className="grid gap-1.5 sm:col-span-2 lg:col-span-4">
        <legend className="text-sm font-medium text-slate-900">Qualifiers (asked with the condition; the matcher checks them by hand)</legend>
        {QUALIFIER_GROUPS.map((group) => (
          <div key={group.label} role="group" aria-label={group.label} className="grid gap-1">
            <span aria-hidden="true" className="text-xs font-medium text-slate-600">
              {group.label}
            </span>
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {group.qualifiers.map((qualifier) => (
                <label key={qualifier} className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-blue-700"
                    checked={fields.qualifiers.includes(qualifier)}
                    onChange={(event) =>
                      onFields({
                        // Kept in the contract's order, so the same choice is the same rule.
                        qualifiers: CONDITION_QUALIFIERS.filter((item) => (item === qualifier ? event.target.checked : fields.qualifiers.includes(item))),
                      })
                    }
                  />
                  {QUALIFIER_WORDS[qualifier].label}
                </label>
              ))}
            </div>
          </div>
        ))}
      </fieldset>
    </>
  );
}

/** A lab value: the measure, how it compares, the value or range, and the unit. */
function LabFields(props: RuleFieldsProps) {
  const { criterion, onFields } = props;
  const id = fieldIdOf(criterion);
  const { fields } = criterion;
  return (
    <>
      <RuleInput {...props} name="measure" label="Measure" placeholder="eGFR" />
      <Field className="content-start" label="Eligible when">
        <Select id={id('comparator')} value={fields.comparator} onChange={(event) => onFields({ comparator: event.target.value as RuleFields['comparator'] })}>
          {COMPARATORS.map((comparator) => (
            <option key={comparator} value={comparator}>
              {COMPARATOR_LABELS[comparator]}
            </option>
          ))}
        </Select>
      </Field>
      <RuleInput {...props} name="value" label={fields.comparator === 'between' ? 'Lower value' : 'Value'} decimal />
      {fields.comparator === 'between' && <RuleInput {...props} name="upperValue" label="Upper value" decimal />}
      <RuleInput {...props} name="unit" label="Unit (optional)" placeholder="mL/min" />
    </>
  );
}

/** A performance status: the scale and the eligible scores. */
function PerformanceStatusFields(props: RuleFieldsProps) {
  const { criterion, onFields } = props;
  const id = fieldIdOf(criterion);
  return (
    <>
      <Field className="content-start" label="Scale">
        <Select id={id('scale')} value={criterion.fields.scale} onChange={(event) => onFields({ scale: event.target.value as RuleFields['scale'] })}>
          <option value="ECOG">ECOG</option>
          <option value="Karnofsky">Karnofsky</option>
        </Select>
      </Field>
      <RuleInput {...props} name="minScore" label="Lowest score (optional)" decimal />
      <RuleInput {...props} name="maxScore" label="Highest score (optional)" decimal />
    </>
  );
}
