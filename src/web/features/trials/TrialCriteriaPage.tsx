import { Link } from '@tanstack/react-router';
import { Plus, Save, Undo2 } from 'lucide-react';
import { focusMoveButton, ItemActions, useUnsavedChangesGuard } from '../../components/ItemActions';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { DURATION_UNITS } from '../../../contract/durations';
import { CONDITION_QUALIFIERS, QUALIFIER_WORDS } from '../../../contract/qualifiers';
import type { CriterionKind, Trial } from '../../../contract/trials';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, buttonClass, EmptyState, Field, Input, PageHeader, Select, Table, Td, Th } from '../../components/ui';
import { useActiveOrganization } from '../../lib/active-organization';
import { ApiRequestError } from '../../lib/api';
import { cn, errorMessage } from '../../lib/utils';
import { needsReviewCount, NeedsReviewBadge, PopulationBadge, StatusBadge } from './components';
import {
  COMPARATOR_LABELS,
  COMPARATORS,
  newKey,
  ordered,
  RULE_TYPE_LABELS,
  RULE_TYPES,
  SITE_JUDGEMENT_REASONS,
  ruleOf,
  toEditable,
  toInputs,
  EMPTY_FIELDS,
  type EditableCriterion,
  type FieldErrors,
  type RuleFields,
  type RuleType,
} from './criteria-editor';
import { RULE_SOURCE_LABELS, ruleInWords, SITE_JUDGEMENT_LABELS } from './format';
import { useTrialQuery, useTrialsQuery, useUpdateTrial } from './queries';
import { useIsGlobal } from './hooks';
import { SuggestionsPanel } from './SuggestionsPanel';

const textareaClass =
  'w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-[invalid=true]:border-red-700';

const KIND_LABELS: Record<CriterionKind, string> = { inclusion: 'Inclusion', exclusion: 'Exclusion' };

function RuleFieldsEditor({
  criterion,
  errors,
  onFields,
}: {
  criterion: EditableCriterion;
  errors: FieldErrors;
  onFields: (patch: Partial<RuleFields>) => void;
}) {
  const id = (name: string) => `criterion-${criterion.key}-${name}`;
  const { fields } = criterion;
  const yesNo = (name: 'present' | 'taking' | 'allowed' | 'accepted' | 'smoker', label: string, yes: string, no: string) => (
    <Field className="content-start" label={label}>
      <Select id={id(name)} value={fields[name]} onChange={(event) => onFields({ [name]: event.target.value as 'yes' | 'no' })}>
        <option value="yes">{yes}</option>
        <option value="no">{no}</option>
      </Select>
    </Field>
  );
  // A number and its unit, one labelled group: "at least [3] [months]".
  const durationField = (name: 'durationMin' | 'durationMax', unit: 'durationMinUnit' | 'durationMaxUnit', label: string) => (
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
  switch (criterion.ruleType) {
    case '':
      return null;
    case 'age':
      return (
        <>
          <Field className="content-start" label="Minimum age (years)" error={errors.minYears}>
            <Input id={id('minYears')} inputMode="decimal" value={fields.minYears} onChange={(event) => onFields({ minYears: event.target.value })} />
          </Field>
          <Field className="content-start" label="Maximum age (years)" error={errors.maxYears}>
            <Input id={id('maxYears')} inputMode="decimal" value={fields.maxYears} onChange={(event) => onFields({ maxYears: event.target.value })} />
          </Field>
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
      return (
        <>
          <Field className="content-start" label="Condition" error={errors.condition}>
            <Input id={id('condition')} value={fields.condition} onChange={(event) => onFields({ condition: event.target.value })} />
          </Field>
          {yesNo('present', 'An eligible candidate', 'Must have it', 'Must not have it')}
          {durationField('durationMin', 'durationMinUnit', 'Has had it for at least (optional)')}
          {durationField('durationMax', 'durationMaxUnit', 'Has had it for less than (optional)')}
          <fieldset className="grid gap-1.5 sm:col-span-2 lg:col-span-4">
            <legend className="text-sm font-medium text-slate-900">Qualifiers (asked with the condition; the matcher checks them by hand)</legend>
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {CONDITION_QUALIFIERS.map((qualifier) => (
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
          </fieldset>
        </>
      );
    case 'medication':
      return (
        <>
          <Field className="content-start" label="Medication" error={errors.medication}>
            <Input id={id('medication')} value={fields.medication} onChange={(event) => onFields({ medication: event.target.value })} />
          </Field>
          {yesNo('taking', 'An eligible candidate', 'Must be taking it', 'Must not be taking it')}
        </>
      );
    case 'lab':
      return (
        <>
          <Field className="content-start" label="Measure" error={errors.measure}>
            <Input id={id('measure')} placeholder="eGFR" value={fields.measure} onChange={(event) => onFields({ measure: event.target.value })} />
          </Field>
          <Field className="content-start" label="Eligible when">
            <Select
              id={id('comparator')}
              value={fields.comparator}
              onChange={(event) => onFields({ comparator: event.target.value as RuleFields['comparator'] })}
            >
              {COMPARATORS.map((comparator) => (
                <option key={comparator} value={comparator}>
                  {COMPARATOR_LABELS[comparator]}
                </option>
              ))}
            </Select>
          </Field>
          <Field className="content-start" label={fields.comparator === 'between' ? 'Lower value' : 'Value'} error={errors.value}>
            <Input id={id('value')} inputMode="decimal" value={fields.value} onChange={(event) => onFields({ value: event.target.value })} />
          </Field>
          {fields.comparator === 'between' && (
            <Field className="content-start" label="Upper value" error={errors.upperValue}>
              <Input id={id('upperValue')} inputMode="decimal" value={fields.upperValue} onChange={(event) => onFields({ upperValue: event.target.value })} />
            </Field>
          )}
          <Field className="content-start" label="Unit (optional)">
            <Input id={id('unit')} placeholder="mL/min" value={fields.unit} onChange={(event) => onFields({ unit: event.target.value })} />
          </Field>
        </>
      );
    case 'pregnancy':
      return yesNo('allowed', 'Pregnancy', 'Allowed', 'Not allowed');
    case 'healthy_volunteers':
      return yesNo('accepted', 'Healthy volunteers', 'Accepted', 'Not accepted');
    case 'contraception':
      return null;
    case 'smoking':
      return yesNo('smoker', 'Current smoker', 'Must be', 'Must not be');
    case 'performance_status':
      return (
        <>
          <Field className="content-start" label="Scale">
            <Select id={id('scale')} value={fields.scale} onChange={(event) => onFields({ scale: event.target.value as RuleFields['scale'] })}>
              <option value="ECOG">ECOG</option>
              <option value="Karnofsky">Karnofsky</option>
            </Select>
          </Field>
          <Field className="content-start" label="Lowest score (optional)" error={errors.minScore}>
            <Input id={id('minScore')} inputMode="decimal" value={fields.minScore} onChange={(event) => onFields({ minScore: event.target.value })} />
          </Field>
          <Field className="content-start" label="Highest score (optional)" error={errors.maxScore}>
            <Input id={id('maxScore')} inputMode="decimal" value={fields.maxScore} onChange={(event) => onFields({ maxScore: event.target.value })} />
          </Field>
        </>
      );
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

function CriterionEditor({
  criterion,
  number,
  isFirst,
  isLast,
  showErrors,
  onChange,
  onMove,
  onRemove,
}: {
  criterion: EditableCriterion;
  number: number;
  isFirst: boolean;
  isLast: boolean;
  showErrors: boolean;
  onChange: (next: EditableCriterion) => void;
  onMove: (direction: -1 | 1) => void;
  onRemove: () => void;
}) {
  const id = (name: string) => `criterion-${criterion.key}-${name}`;
  const legendId = id('legend');
  const { rule, errors: allErrors } = ruleOf(criterion);
  const errors = showErrors ? allErrors : {};
  const setRule = (patch: Partial<EditableCriterion>) => {
    const next = { ...criterion, ...patch };
    // A rule a person sets or changes is theirs, and reviewed (they may tick "Needs review" again).
    onChange({ ...next, ruleSource: next.ruleType ? 'manual' : null, needsReview: next.ruleType ? false : criterion.needsReview });
  };
  return (
    <li data-criterion={criterion.key}>
      <fieldset className={cn('grid gap-4 rounded-lg border bg-white p-4', criterion.needsReview ? 'border-amber-300' : 'border-slate-200')}>
        <legend id={legendId} className="sr-only">
          {KIND_LABELS[criterion.kind]} criterion {number}
        </legend>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <span aria-hidden="true" className="text-sm font-semibold text-slate-900">
              {KIND_LABELS[criterion.kind]} {number}
            </span>
            {criterion.ruleSource && rule ? <Badge tone="blue">{RULE_SOURCE_LABELS[criterion.ruleSource]}</Badge> : <Badge>No rule</Badge>}
            {criterion.needsReview && <NeedsReviewBadge />}
            {criterion.population && <PopulationBadge population={criterion.population} />}
            {!criterion.id && <Badge tone="green">New</Badge>}
          </div>
          <ItemActions describedBy={legendId} isFirst={isFirst} isLast={isLast} onMove={onMove} onRemove={onRemove} />
        </div>
        <Field className="content-start" label="Text" error={errors.text}>
          <textarea
            id={id('text')}
            rows={Math.min(8, Math.max(2, criterion.text.split('\n').length))}
            className={textareaClass}
            value={criterion.text}
            onChange={(event) =>
              onChange({
                ...criterion,
                text: event.target.value,
                // A parsed rule may no longer match edited text: flag it for a person.
                needsReview: criterion.needsReview || Boolean(rule && criterion.ruleSource && criterion.ruleSource !== 'manual'),
              })
            }
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Field className="content-start" label="Kind">
            <Select id={id('kind')} value={criterion.kind} onChange={(event) => onChange({ ...criterion, kind: event.target.value as CriterionKind })}>
              <option value="inclusion">Inclusion</option>
              <option value="exclusion">Exclusion</option>
            </Select>
          </Field>
          <Field className="content-start" label="Rule" error={errors.ruleType}>
            <Select id={id('ruleType')} value={criterion.ruleType} onChange={(event) => setRule({ ruleType: event.target.value as RuleType | '' })}>
              <option value="">No structured rule</option>
              {RULE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {RULE_TYPE_LABELS[type]}
                </option>
              ))}
            </Select>
          </Field>
          <RuleFieldsEditor criterion={criterion} errors={errors} onFields={(patch) => setRule({ fields: { ...criterion.fields, ...patch } })} />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-800">
            {rule ? (
              <>
                <span className="font-medium">Eligible when: </span>
                {ruleInWords(rule)}
              </>
            ) : criterion.ruleType ? (
              <span className="text-slate-700">The rule is not complete yet.</span>
            ) : (
              <span className="text-slate-700">Checked by a person from the text.</span>
            )}
          </p>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="h-4 w-4 accent-amber-700"
              checked={criterion.needsReview}
              onChange={(event) => onChange({ ...criterion, needsReview: event.target.checked })}
            />
            Needs review
          </label>
        </div>
      </fieldset>
    </li>
  );
}

function CriteriaEditor({ trial }: { trial: Trial }) {
  const update = useUpdateTrial();
  const [items, setItems] = useState<EditableCriterion[]>(() => ordered(trial.criteria.map(toEditable)));
  const [baseline, setBaseline] = useState(() => JSON.stringify(toInputs(ordered(trial.criteria.map(toEditable)))));
  const [showErrors, setShowErrors] = useState(false);
  const [reviewOnly, setReviewOnly] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [focusTarget, setFocusTarget] = useState<{ key: string; action: 'up' | 'down' | 'text' } | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const dirty = JSON.stringify(toInputs(items)) !== baseline;
  const savedAt = useRef(trial.updatedAt);
  // The trial changed elsewhere (or was saved here): take its criteria unless there are unsaved edits.
  useEffect(() => {
    if (trial.updatedAt === savedAt.current) return;
    savedAt.current = trial.updatedAt;
    if (!dirty) {
      const fresh = ordered(trial.criteria.map(toEditable));
      setItems(fresh);
      setBaseline(JSON.stringify(toInputs(fresh)));
    }
  }, [trial, dirty]);

  useUnsavedChangesGuard(dirty, 'You have unsaved criteria changes. Leave without saving?');

  useEffect(() => {
    if (!focusTarget) return;
    const root = listRef.current?.querySelector(`[data-criterion="${focusTarget.key}"]`);
    if (focusTarget.action === 'text') (root?.querySelector('textarea') as HTMLTextAreaElement | null)?.focus();
    else focusMoveButton(root, focusTarget.action);
    setFocusTarget(null);
  }, [focusTarget]);

  const review = needsReviewCount(items);
  const errorsByKey = new Map(items.map((item) => [item.key, ruleOf(item).errors]));
  const invalidCount = [...errorsByKey.values()].filter((errors) => Object.keys(errors).length > 0).length;

  const change = (key: string, next: EditableCriterion) =>
    setItems((current) => {
      const before = current.find((item) => item.key === key);
      const replaced = current.map((item) => (item.key === key ? next : item));
      if (before && before.kind !== next.kind) {
        // A criterion that changes kind goes to the end of its new list.
        const rest = replaced.filter((item) => item.key !== key);
        setAnnouncement(`Moved to the ${next.kind} criteria, last.`);
        return ordered([...rest, next]);
      }
      return replaced;
    });

  const move = (key: string, direction: -1 | 1) =>
    setItems((current) => {
      const index = current.findIndex((item) => item.key === key);
      const kind = current[index]?.kind;
      let swap = index + direction;
      while (swap >= 0 && swap < current.length && current[swap].kind !== kind) swap += direction;
      if (index < 0 || swap < 0 || swap >= current.length) return current;
      const next = [...current];
      [next[index], next[swap]] = [next[swap], next[index]];
      const sameKind = next.filter((item) => item.kind === kind);
      const position = sameKind.findIndex((item) => item.key === key) + 1;
      setAnnouncement(`Moved to position ${position} of ${sameKind.length} ${kind} criteria.`);
      setFocusTarget({ key, action: direction === -1 ? 'up' : 'down' });
      return next;
    });

  const remove = (key: string) => {
    setItems((current) => current.filter((item) => item.key !== key));
    setAnnouncement('Criterion deleted. Save to keep the change, or discard changes to undo.');
  };

  const add = (kind: CriterionKind) => {
    const item: EditableCriterion = {
      key: newKey(),
      kind,
      text: '',
      ruleType: '',
      fields: { ...EMPTY_FIELDS },
      ruleSource: null,
      needsReview: false,
      population: null,
      original: null,
    };
    setItems((current) => ordered([...current, item]));
    setReviewOnly(false);
    setFocusTarget({ key: item.key, action: 'text' });
  };

  const discard = () => {
    const fresh = ordered(trial.criteria.map(toEditable));
    setItems(fresh);
    setBaseline(JSON.stringify(toInputs(fresh)));
    setShowErrors(false);
    setAnnouncement('Changes discarded.');
  };

  const save = () => {
    setShowErrors(true);
    if (invalidCount > 0) {
      setAnnouncement(`${invalidCount === 1 ? '1 criterion has' : `${invalidCount} criteria have`} a problem to fix before saving.`);
      toast.error('Fix the highlighted criteria before saving');
      return;
    }
    const criteria = toInputs(items);
    update.mutate(
      { trialId: trial.id, input: { criteria } },
      {
        onSuccess: (saved) => {
          savedAt.current = saved.updatedAt;
          const fresh = ordered(saved.criteria.map(toEditable));
          setItems(fresh);
          setBaseline(JSON.stringify(toInputs(fresh)));
          setShowErrors(false);
          toast.success('Criteria saved');
        },
      },
    );
  };

  const acceptProposal = (key: string) => {
    const item = items.find((candidate) => candidate.key === key);
    if (item) change(key, { ...item, needsReview: false });
    setAnnouncement('Rule accepted. Save criteria to keep it.');
  };
  const rejectProposal = (key: string) => {
    const item = items.find((candidate) => candidate.key === key);
    if (item) change(key, { ...item, ruleType: '', fields: { ...EMPTY_FIELDS }, ruleSource: null, original: null, needsReview: true });
    setAnnouncement('Rule rejected. Save criteria to keep the change.');
  };

  return (
    <div className="grid gap-6 pb-24" ref={listRef}>
      <SuggestionsPanel
        trial={trial}
        items={items}
        dirty={dirty}
        onAccept={acceptProposal}
        onReject={rejectProposal}
        onEdit={(key) => {
          setReviewOnly(false);
          setFocusTarget({ key, action: 'text' });
        }}
      />
      <div className="flex flex-wrap items-center gap-4 rounded-lg border border-slate-200 bg-white px-4 py-3">
        <p className="text-sm text-slate-900" data-testid="review-count">
          <span className="font-semibold">
            {review} of {items.length}
          </span>{' '}
          criteria need review
        </p>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" className="h-4 w-4 accent-blue-700" checked={reviewOnly} onChange={(event) => setReviewOnly(event.target.checked)} />
          Needs review only
        </label>
        <p className="text-xs text-slate-700">Rules state what an eligible candidate must satisfy: an exclusion “eGFR &lt; 45” is the rule “eGFR ≥ 45”.</p>
      </div>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>

      {(['inclusion', 'exclusion'] as const).map((kind) => {
        const all = items.filter((item) => item.kind === kind);
        const shown = reviewOnly ? all.filter((item) => item.needsReview) : all;
        return (
          <section key={kind} aria-labelledby={`${kind}-heading`} className="grid gap-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id={`${kind}-heading`} className="text-lg font-semibold text-slate-900">
                {KIND_LABELS[kind]} criteria <span className="font-normal text-slate-700">({all.length})</span>
              </h2>
              <Button variant="secondary" size="sm" onClick={() => add(kind)}>
                <Plus aria-hidden="true" className="h-4 w-4" />
                Add {kind} criterion
              </Button>
            </div>
            {shown.length === 0 ? (
              <EmptyState title={reviewOnly && all.length > 0 ? `No ${kind} criteria need review` : `No ${kind} criteria`} />
            ) : (
              <ol className="grid gap-3">
                {shown.map((item) => {
                  const number = all.indexOf(item) + 1;
                  return (
                    <CriterionEditor
                      key={item.key}
                      criterion={item}
                      number={number}
                      isFirst={number === 1}
                      isLast={number === all.length}
                      showErrors={showErrors}
                      onChange={(next) => change(item.key, next)}
                      onMove={(direction) => move(item.key, direction)}
                      onRemove={() => remove(item.key)}
                    />
                  );
                })}
              </ol>
            )}
          </section>
        );
      })}

      <div className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-2px_8px_rgba(0,0,0,0.06)] md:left-60">
        <div className="flex flex-wrap items-center justify-end gap-3">
          <p className="mr-auto text-sm text-slate-800" aria-live="polite">
            {update.isPending ? 'Saving…' : dirty ? 'Unsaved changes' : 'All changes saved'}
            {showErrors && invalidCount > 0 && (
              <span className="ml-2 text-red-700">{invalidCount === 1 ? '1 criterion needs fixing' : `${invalidCount} criteria need fixing`}</span>
            )}
          </p>
          <Button variant="secondary" onClick={discard} disabled={!dirty || update.isPending}>
            <Undo2 aria-hidden="true" className="h-4 w-4" />
            Discard changes
          </Button>
          <Button onClick={save} disabled={!dirty || update.isPending}>
            <Save aria-hidden="true" className="h-4 w-4" />
            {update.isPending ? 'Saving…' : 'Save criteria'}
          </Button>
        </div>
      </div>
    </div>
  );
}

function TrialPicker() {
  const isGlobal = useIsGlobal();
  const { organizations } = useActiveOrganization();
  const query = useTrialsQuery();
  const names = useMemo(() => new Map(organizations.map((org) => [org.id, org.name])), [organizations]);
  if (query.isPending) return <Spinner label="Loading trials" />;
  if (query.isError) return <ErrorCard title="Could not load trials" error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.trials.length === 0) {
    return (
      <EmptyState title="No trials yet">
        <p>Criteria belong to a trial. Create or import one first.</p>
        <Link to="/trials" className={cn(buttonClass('secondary'), 'mt-3')}>
          Go to trials
        </Link>
      </EmptyState>
    );
  }
  return (
    <Table caption="Choose a trial to edit its criteria">
      <thead>
        <tr>
          <Th>Trial</Th>
          <Th>Status</Th>
          <Th className="text-right">Criteria</Th>
          <Th>Needs review</Th>
          {isGlobal && <Th>Organization</Th>}
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody>
        {query.data.trials.map((trial) => {
          const review = needsReviewCount(trial.criteria);
          return (
            <tr key={trial.id}>
              <Td className="max-w-md font-medium text-slate-900" id={`picker-trial-${trial.id}`}>
                {trial.title}
                {trial.nctId && <span className="ml-2 font-mono text-xs font-normal text-slate-700">{trial.nctId}</span>}
              </Td>
              <Td>
                <StatusBadge status={trial.status} />
              </Td>
              <Td className="text-right tabular-nums">{trial.criteria.length}</Td>
              <Td>{review > 0 ? <Badge tone="amber">{review}</Badge> : <span className="text-slate-700">None</span>}</Td>
              {isGlobal && <Td>{names.get(trial.organizationId) ?? '—'}</Td>}
              <Td className="text-right">
                <Link
                  to="/admin/trial-criteria"
                  search={{ trialId: trial.id }}
                  aria-describedby={`picker-trial-${trial.id}`}
                  className={buttonClass('secondary', 'sm')}
                >
                  Edit criteria
                </Link>
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/** /admin/trial-criteria: a trial picker, or (with `trialId`) the criteria editor of that trial. */
export function TrialCriteriaPage({ trialId }: { trialId: string | undefined }) {
  const query = useTrialQuery(trialId);
  if (!trialId) {
    return (
      <div>
        <PageHeader title="Trial criteria" description="Choose a trial to edit, reorder, add or delete its eligibility criteria and their structured rules." />
        <TrialPicker />
      </div>
    );
  }
  let body;
  if (query.isPending) body = <Spinner label="Loading criteria" />;
  else if (query.isError) {
    const missing = query.error instanceof ApiRequestError && query.error.status === 404;
    body = (
      <div className="grid gap-3">
        <ErrorCard
          title={missing ? 'This trial does not exist' : 'Could not load this trial'}
          message={missing ? 'It may have been deleted, or it belongs to another organization.' : errorMessage(query.error)}
          onRetry={missing ? undefined : () => void query.refetch()}
        />
        <div>
          <Link to="/admin/trial-criteria" search={{}} className={buttonClass('secondary')}>
            Choose another trial
          </Link>
        </div>
      </div>
    );
  } else body = <CriteriaEditor key={query.data.id} trial={query.data} />;

  return (
    <div>
      <PageHeader
        title="Trial criteria"
        description={
          query.data ? (
            <>
              Eligibility of{' '}
              <Link to="/trials/$trialId" params={{ trialId: query.data.id }} className="font-medium text-blue-800 underline underline-offset-4">
                {query.data.title}
              </Link>
              . Save sends the whole ordered list.
            </>
          ) : undefined
        }
        actions={
          <Link to="/admin/trial-criteria" search={{}} className={buttonClass('secondary')}>
            Choose another trial
          </Link>
        }
      />
      {body}
    </div>
  );
}
