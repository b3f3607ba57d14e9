import type {
  BranchCondition,
  EnrollmentSource,
  EnrollmentStatus,
  ExitReason,
  SequenceStatus,
  SequenceStep,
  SequenceStepType,
  SequenceTrigger,
  SequenceVariable,
  StepStatistics,
  TimelineKind,
} from '../../../contract/sequences';
import type { VoiceAgentType } from '../../../contract/voice';
import { CONTACT_BLOCK_WORDS, humanizeCode } from '../../../contract/words';

/*
 * Words and pure helpers of the sequence screens. Type-only imports from the contract: this module is read by
 * the candidate pages too, whose first JavaScript should not carry the sequences contract (zod). The ordered
 * lists below repeat the contract's; tests/unit/sequences-format.test.ts holds them equal.
 */

export const SEQUENCE_STATUS_LABELS: Record<SequenceStatus, string> = { active: 'Active', archived: 'Archived' };

/** The triggers in the words a coordinator reads in the builder. */
export const TRIGGER_LABELS: Record<SequenceTrigger, string> = {
  candidate_imported: 'A candidate is imported for the trial',
  missed_call_no_callback: 'A call was missed and no callback is set',
  prescreen_potential: 'A prescreen result is Potential (needs information)',
  visit_no_show: 'A booked visit was a no-show',
};
export const TRIGGERS = Object.keys(TRIGGER_LABELS) as SequenceTrigger[];

export const STEP_TYPE_LABELS: Record<SequenceStepType, string> = { sms: 'SMS', email: 'Email', call: 'Call', wait: 'Wait', branch: 'Branch' };
export const STEP_TYPES = Object.keys(STEP_TYPE_LABELS) as SequenceStepType[];

export const BRANCH_CONDITION_LABELS: Record<BranchCondition, string> = {
  replied: 'The candidate replied',
  call_answered: 'A call was answered',
  call_missed: 'A call was missed',
  call_voicemail: 'A call went to voicemail',
  prescreen_pass: 'The prescreen passed',
  prescreen_fail: 'The prescreen failed',
};
export const BRANCH_CONDITIONS_LIST = Object.keys(BRANCH_CONDITION_LABELS) as BranchCondition[];

export const AGENT_LABELS: Record<VoiceAgentType, string> = { PRESCREEN: 'Prescreen agent', SITE_VISIT_SCHEDULING: 'Site-visit scheduling agent' };
export const AGENT_TYPES_LIST = Object.keys(AGENT_LABELS) as VoiceAgentType[];

export const ENROLLMENT_STATUS_LABELS: Record<EnrollmentStatus, string> = { active: 'Active', paused: 'Paused', completed: 'Completed', exited: 'Exited' };
export const ENROLLMENT_STATUS_TONES: Record<EnrollmentStatus, 'slate' | 'blue' | 'green' | 'amber'> = {
  active: 'blue',
  paused: 'amber',
  completed: 'green',
  exited: 'slate',
};
export const ENROLLMENT_STATUS_LIST = Object.keys(ENROLLMENT_STATUS_LABELS) as EnrollmentStatus[];

export const EXIT_REASON_LABELS: Record<ExitReason, string> = {
  replied: 'Replied',
  booked: 'Booked a visit',
  opted_out: 'Opted out',
  do_not_contact: 'Marked do not contact',
  status_changed: 'Status changed',
  stopped: 'Stopped by staff',
  prescreen_failed: 'Prescreen failed',
  sequence_archived: 'Sequence archived',
};

export const SOURCE_LABELS: Record<EnrollmentSource, string> = {
  manual: 'Added by staff',
  filter: 'Added by a filter',
  trial_matcher: 'Trial matcher',
  candidate_imported: 'Imported for the trial',
  missed_call_no_callback: 'Missed call, no callback',
  prescreen_potential: 'Prescreen POTENTIAL',
  visit_no_show: 'Visit no-show',
};

export const TIMELINE_KIND_LABELS: Record<TimelineKind, string> = {
  enrolled: 'Enrolled',
  sent: 'Sent',
  blocked: 'Blocked',
  failed: 'Failed',
  moved: 'Moved',
  waited: 'Waited',
  branched: 'Branched',
  paused: 'Paused',
  resumed: 'Resumed',
  completed: 'Completed',
  exited: 'Exited',
  version: 'New version',
};

export const WEEKDAY_LABELS = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' } as const;
export type Weekday = keyof typeof WEEKDAY_LABELS;
export const WEEKDAY_LIST = Object.keys(WEEKDAY_LABELS) as Weekday[];

export const WAIT_UNIT_LABELS = { minutes: 'minutes', hours: 'hours', days: 'days' } as const;
export type WaitUnit = keyof typeof WAIT_UNIT_LABELS;
export const WAIT_UNITS = Object.keys(WAIT_UNIT_LABELS) as WaitUnit[];

/** The variables a message may use, as {name}. */
export const VARIABLES: readonly SequenceVariable[] = ['firstName', 'lastName', 'trialTitle', 'organizationName', 'siteAddress'];
export const MESSAGE_MAX = 1600;
export const EMAIL_SUBJECT_MAX = 200;
export const EMAIL_BODY_MAX = 10_000;
export const NAME_MAX = 120;
export const DESCRIPTION_MAX = 1000;
export const MAX_STEPS = 30;
export const BULK_MAX = 5000;

export const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** "34%", or "—" with nothing to count. */
export function percent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${Math.round(value * 100)}%`;
}

/** A zone the browser knows, else UTC (the name shown says which). */
function usableZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

const zoneName = (timeZone: string) => timeZone.replace(/_/g, ' ');

function dayKey(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/**
 * When the next step runs, on the candidate's own clocks with the zone named: "Tue 08:00 (America/Chicago)"
 * within the coming week, "Tue, Mar 10, 08:00 (America/Chicago)" further away or in the past; "—" with none.
 */
export function formatNextSend(value: string | null | undefined, timeZone: string, now: Date = new Date()): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  const zone = usableZone(timeZone);
  const time = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
  const weekday = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short' }).format(date);
  const dayMs = 86_400_000;
  const days = (Date.parse(dayKey(date, zone)) - Date.parse(dayKey(now, zone))) / dayMs;
  if (days >= 0 && days < 7) return `${weekday} ${time} (${zoneName(zone)})`;
  const day = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    month: 'short',
    day: 'numeric',
    ...(date.getUTCFullYear() !== now.getUTCFullYear() ? { year: 'numeric' } : {}),
  }).format(date);
  return `${weekday}, ${day}, ${time} (${zoneName(zone)})`;
}

/** "a minute", "3 hours". */
function duration(amount: number, unit: WaitUnit): string {
  const one = unit.slice(0, -1);
  return amount === 1 ? `1 ${one}` : `${amount} ${unit}`;
}

/** A step in a line: "SMS: Hi {firstName}…", "Wait 2 days", "Wait until Tuesday 08:00", "If the candidate replied: end, else next step". */
export function stepSummary(step: SequenceStep, steps: readonly SequenceStep[] = []): string {
  const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);
  switch (step.type) {
    case 'sms':
      return `SMS: ${clip(step.message.en)}`;
    case 'email':
      return `Email: ${clip(step.subject.en)}`;
    case 'call':
      return `Call with the ${AGENT_LABELS[step.agentType].toLowerCase()}`;
    case 'wait':
      if (step.untilTime) return `Wait until ${step.untilWeekday ? `${WEEKDAY_LABELS[step.untilWeekday]} ` : ''}${step.untilTime} (the candidate’s time)`;
      return step.amount && step.unit ? `Wait ${duration(step.amount, step.unit)}` : 'Wait';
    case 'branch':
      return `If ${BRANCH_CONDITION_LABELS[step.condition].replace(/^The /, 'the ').replace(/^A /, 'a ')}: ${targetInWords(step.ifTrue, steps)}; otherwise ${targetInWords(step.ifFalse, steps)}`;
  }
}

/** Where a branch goes, in words: "go to the next step", "end the sequence", "go to step 4 (SMS)". */
export function targetInWords(target: string, steps: readonly SequenceStep[]): string {
  if (target === 'next') return 'go to the next step';
  if (target === 'end') return 'end the sequence';
  const index = steps.findIndex((step) => step.key === target);
  return index < 0 ? `go to ${target}` : `go to step ${index + 1} (${STEP_TYPE_LABELS[steps[index].type]})`;
}

/** A key no other step uses: "sms-1", "sms-2", ... */
export function uniqueKey(type: SequenceStepType, steps: readonly { key: string }[]): string {
  const taken = new Set(steps.map((step) => step.key));
  for (let n = 1; ; n++) {
    const key = `${type}-${n}`;
    if (!taken.has(key)) return key;
  }
}

/** A new step of a type with a key of its own, as the builder adds it. */
export function newStep(type: SequenceStepType, steps: readonly { key: string }[]): SequenceStep {
  const key = uniqueKey(type, steps);
  switch (type) {
    case 'sms':
      return { key, type, message: { en: '', es: '' } };
    case 'email':
      return { key, type, subject: { en: '', es: '' }, body: { en: '', es: '' } };
    case 'call':
      return { key, type, agentType: 'PRESCREEN' };
    case 'wait':
      return { key, type, amount: 1, unit: 'days' };
    case 'branch':
      return { key, type, condition: 'replied', ifTrue: 'end', ifFalse: 'next' };
  }
}

export function move<T>(items: readonly T[], index: number, direction: -1 | 1): T[] {
  const target = index + direction;
  if (target < 0 || target >= items.length) return [...items];
  const next = [...items];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}

/** A step key renamed: branches that pointed at the old key follow it. */
export function renameKey(steps: readonly SequenceStep[], index: number, key: string): SequenceStep[] {
  const old = steps[index].key;
  return steps.map((step, i) => {
    if (i === index) return { ...step, key };
    if (step.type !== 'branch' || !old) return step;
    return { ...step, ifTrue: step.ifTrue === old ? key : step.ifTrue, ifFalse: step.ifFalse === old ? key : step.ifFalse };
  });
}

/** A step removed: branches that went to it go to the next step instead (the builder says so). */
export function removeStep(steps: readonly SequenceStep[], index: number): SequenceStep[] {
  const gone = steps[index].key;
  return steps
    .filter((_, i) => i !== index)
    .map((step) =>
      step.type === 'branch' ? { ...step, ifTrue: step.ifTrue === gone ? 'next' : step.ifTrue, ifFalse: step.ifFalse === gone ? 'next' : step.ifFalse } : step,
    );
}

/** No Spanish is `es: undefined`, which JSON leaves out. */
const bilingual = (text: { en: string; es?: string }): { en: string; es: string | undefined } => ({ en: text.en.trim(), es: text.es?.trim() || undefined });

/** The steps as the API wants them: trimmed texts, no empty Spanish, only the fields of the wait's kind. */
export function normalizeSteps(steps: readonly SequenceStep[]): SequenceStep[] {
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every step type, as TypeScript checks
  return steps.map((step) => {
    const key = step.key.trim();
    switch (step.type) {
      case 'sms':
        return { key, type: 'sms', message: bilingual(step.message) };
      case 'email':
        return { key, type: 'email', subject: bilingual(step.subject), body: bilingual(step.body) };
      case 'call':
        return { key, type: 'call', agentType: step.agentType };
      case 'wait':
        return step.untilTime !== undefined || step.untilWeekday !== undefined
          ? {
              key,
              type: 'wait',
              ...(step.untilTime !== undefined ? { untilTime: step.untilTime } : {}),
              ...(step.untilWeekday ? { untilWeekday: step.untilWeekday } : {}),
            }
          : { key, type: 'wait', ...(step.amount !== undefined ? { amount: step.amount } : {}), ...(step.unit ? { unit: step.unit } : {}) };
      case 'branch':
        return { key, type: 'branch', condition: step.condition, ifTrue: step.ifTrue, ifFalse: step.ifFalse };
    }
  });
}

/** Problems by step and field: `steps.2.message.en` -> step 2, field `message.en`; `steps.2` -> step 2, field ''. Others are the list's. */
export function groupProblems(problems: readonly { path: string; message: string }[]): { byStep: Map<number, Map<string, string[]>>; general: string[] } {
  const byStep = new Map<number, Map<string, string[]>>();
  const general: string[] = [];
  for (const problem of problems) {
    const match = /^steps\.(\d+)(?:\.(.+))?$/.exec(problem.path);
    if (!match) {
      if (!general.includes(problem.message)) general.push(problem.message);
      continue;
    }
    const index = Number(match[1]);
    const field = match[2] ?? '';
    const fields = byStep.get(index) ?? new Map<string, string[]>();
    const list = fields.get(field) ?? [];
    if (!list.includes(problem.message)) list.push(problem.message);
    fields.set(field, list);
    byStep.set(index, fields);
  }
  return { byStep, general };
}

/** `{variable}` put in a text at the caret (replacing a selection); answers the new text and where the caret goes. */
export function insertVariable(
  text: string,
  variable: string,
  start: number | null | undefined,
  end: number | null | undefined,
): { text: string; caret: number } {
  const token = `{${variable}}`;
  const from = start ?? text.length;
  const to = end ?? from;
  return { text: text.slice(0, from) + token + text.slice(to), caret: from + token.length };
}

/** Why a candidate was not enrolled, in words: a known code is translated, a sentence is kept. */
export function refusalWords(reason: string): string {
  if (/^[a-z]+(?:_[a-z]+)*$/.test(reason))
    return CONTACT_BLOCK_WORDS[reason] ? CONTACT_BLOCK_WORDS[reason][0].toUpperCase() + CONTACT_BLOCK_WORDS[reason].slice(1) : humanizeCode(reason);
  return reason;
}

/** The funnel of a step in a line for the chart and the table: its name and what happened there. */
export function stepLabel(step: Pick<StepStatistics, 'stepIndex' | 'type'>): string {
  return `${step.stepIndex + 1}. ${STEP_TYPE_LABELS[step.type]}`;
}
