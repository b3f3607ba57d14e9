import { describe, expect, it } from 'vitest';
import {
  BRANCH_CONDITIONS,
  ENROLLMENT_SOURCES,
  ENROLLMENT_STATUSES,
  EXIT_REASONS,
  SEQUENCE_BULK_MAX,
  SEQUENCE_EMAIL_BODY_MAX,
  SEQUENCE_EMAIL_SUBJECT_MAX,
  SEQUENCE_MAX_STEPS,
  SEQUENCE_MESSAGE_MAX,
  SEQUENCE_NAME_MAX,
  SEQUENCE_STEP_TYPES,
  SEQUENCE_TRIGGERS,
  SEQUENCE_VARIABLES,
  TIMELINE_KINDS,
  type SequenceStep,
} from '../../src/contract/sequences';
import { SEQUENCE_ENROLLMENT_STATUSES, sequenceSearch, sequencesSearch } from '../../src/contract/search';
import {
  BRANCH_CONDITIONS_LIST,
  BULK_MAX,
  EMAIL_BODY_MAX,
  EMAIL_SUBJECT_MAX,
  ENROLLMENT_STATUS_LIST,
  EXIT_REASON_LABELS,
  formatNextSend,
  groupProblems,
  insertVariable,
  MAX_STEPS,
  MESSAGE_MAX,
  NAME_MAX,
  newStep,
  normalizeSteps,
  percent,
  refusalWords,
  removeStep,
  renameKey,
  SOURCE_LABELS,
  STEP_TYPES,
  stepSummary,
  TIMELINE_KIND_LABELS,
  TRIGGERS,
  uniqueKey,
  VARIABLES,
} from '../../src/web/features/sequences/format';
import { builderProblems, structuralProblems } from '../../src/web/features/sequences/validation';

describe('the next send time, on the candidate’s clock', () => {
  const now = new Date('2026-11-23T12:00:00Z'); // a Monday

  it('names the weekday, the 24-hour time and the zone within the coming week', () => {
    // 14:00 UTC is 08:00 in Chicago (CST, UTC-6) on Tuesday the 24th.
    expect(formatNextSend('2026-11-24T14:00:00Z', 'America/Chicago', now)).toBe('Tue 08:00 (America/Chicago)');
    expect(formatNextSend('2026-11-24T14:00:00Z', 'Europe/Madrid', now)).toBe('Tue 15:00 (Europe/Madrid)');
  });

  it('reads the day on the candidate’s clock, not the viewer’s: late Monday in Los Angeles is already Tuesday in UTC', () => {
    expect(formatNextSend('2026-11-24T05:30:00Z', 'America/Los_Angeles', now)).toBe('Mon 21:30 (America/Los Angeles)');
  });

  it('adds the date a week or more away, or in the past, and the year when it is another', () => {
    expect(formatNextSend('2026-12-02T14:00:00Z', 'America/Chicago', now)).toBe('Wed, Dec 2, 08:00 (America/Chicago)');
    expect(formatNextSend('2026-11-20T14:00:00Z', 'America/Chicago', now)).toBe('Fri, Nov 20, 08:00 (America/Chicago)');
    expect(formatNextSend('2027-01-05T14:00:00Z', 'America/Chicago', now)).toBe('Tue, Jan 5, 2027, 08:00 (America/Chicago)');
  });

  it('says UTC for a zone the browser does not know, and a dash with no time', () => {
    expect(formatNextSend('2026-11-24T14:00:00Z', 'Mars/Olympus', now)).toBe('Tue 14:00 (UTC)');
    expect(formatNextSend(null, 'America/Chicago', now)).toBe('—');
    expect(formatNextSend('not a date', 'America/Chicago', now)).toBe('—');
  });
});

describe('the words of the sequence screens', () => {
  it('cover every code of the contract, in its order', () => {
    expect(TRIGGERS).toEqual([...SEQUENCE_TRIGGERS]);
    expect(STEP_TYPES).toEqual([...SEQUENCE_STEP_TYPES]);
    expect(BRANCH_CONDITIONS_LIST).toEqual([...BRANCH_CONDITIONS]);
    expect(ENROLLMENT_STATUS_LIST).toEqual([...ENROLLMENT_STATUSES]);
    expect([...SEQUENCE_ENROLLMENT_STATUSES]).toEqual([...ENROLLMENT_STATUSES]);
    expect(Object.keys(EXIT_REASON_LABELS)).toEqual([...EXIT_REASONS]);
    expect(Object.keys(SOURCE_LABELS)).toEqual([...ENROLLMENT_SOURCES]);
    expect(Object.keys(TIMELINE_KIND_LABELS)).toEqual([...TIMELINE_KINDS]);
    expect(VARIABLES).toEqual([...SEQUENCE_VARIABLES]);
  });

  it('hold the contract’s limits', () => {
    expect([NAME_MAX, MESSAGE_MAX, EMAIL_SUBJECT_MAX, EMAIL_BODY_MAX, MAX_STEPS, BULK_MAX]).toEqual([
      SEQUENCE_NAME_MAX,
      SEQUENCE_MESSAGE_MAX,
      SEQUENCE_EMAIL_SUBJECT_MAX,
      SEQUENCE_EMAIL_BODY_MAX,
      SEQUENCE_MAX_STEPS,
      SEQUENCE_BULK_MAX,
    ]);
  });

  it('put a refusal code in words and keep a sentence as it is', () => {
    expect(refusalWords('no_sms_consent')).toBe('No consent to texts');
    expect(refusalWords('already_gone')).toBe('Already gone');
    expect(refusalWords('Marked do not contact')).toBe('Marked do not contact');
  });

  it('show a conversion as a whole percentage, or a dash with nobody enrolled', () => {
    expect(percent(0.1234)).toBe('12%');
    expect(percent(null)).toBe('—');
  });
});

const sms = (key: string, en = 'Hi {firstName}'): SequenceStep => ({ key, type: 'sms', message: { en, es: undefined } });

describe('building the steps', () => {
  it('gives a new step a key no other step has', () => {
    expect(uniqueKey('sms', [{ key: 'sms-1' }, { key: 'wait-1' }])).toBe('sms-2');
    expect(newStep('branch', [])).toEqual({ key: 'branch-1', type: 'branch', condition: 'replied', ifTrue: 'end', ifFalse: 'next' });
  });

  it('lets branches follow a renamed step, and go on to the next step when their target is deleted', () => {
    const steps: SequenceStep[] = [sms('first'), { key: 'check', type: 'branch', condition: 'replied', ifTrue: 'end', ifFalse: 'reminder' }, sms('reminder')];
    const renamed = renameKey(steps, 2, 'second-text');
    expect(renamed[1]).toMatchObject({ ifFalse: 'second-text' });
    expect(renamed[2].key).toBe('second-text');
    const removed = removeStep(renamed, 2);
    expect(removed).toHaveLength(2);
    expect(removed[1]).toMatchObject({ ifTrue: 'end', ifFalse: 'next' });
  });

  it('sends trimmed texts without an empty Spanish version, and only the fields of the wait’s kind', () => {
    const normalized = normalizeSteps([
      { key: ' a ', type: 'sms', message: { en: ' Hello ', es: '  ' } },
      { key: 'w', type: 'wait', untilTime: '08:00', amount: 2, unit: 'days' },
    ]);
    expect(JSON.parse(JSON.stringify(normalized))).toEqual([
      { key: 'a', type: 'sms', message: { en: 'Hello' } },
      { key: 'w', type: 'wait', untilTime: '08:00' },
    ]);
  });

  it('puts a variable at the caret, replacing a selection', () => {
    expect(insertVariable('Hi !', 'firstName', 3, 3)).toEqual({ text: 'Hi {firstName}!', caret: 14 });
    expect(insertVariable('Hi you!', 'firstName', 3, 6)).toEqual({ text: 'Hi {firstName}!', caret: 14 });
    expect(insertVariable('Hi', 'lastName', undefined, undefined)).toEqual({ text: 'Hi{lastName}', caret: 12 });
  });

  it('says a step in a line', () => {
    const steps: SequenceStep[] = [
      sms('a'),
      { key: 'w', type: 'wait', amount: 1, unit: 'minutes' },
      { key: 'b', type: 'branch', condition: 'replied', ifTrue: 'end', ifFalse: 'c' },
      sms('c'),
    ];
    expect(stepSummary(steps[0])).toBe('SMS: Hi {firstName}');
    expect(stepSummary(steps[1])).toBe('Wait 1 minute');
    expect(stepSummary({ key: 'w2', type: 'wait', untilTime: '08:00', untilWeekday: 'tue' })).toBe('Wait until Tuesday 08:00 (the candidate’s time)');
    expect(stepSummary(steps[2], steps)).toBe('If the candidate replied: end the sequence; otherwise go to step 4 (SMS)');
  });
});

describe('the builder’s checks (the contract’s rules)', () => {
  it('finds what the server would refuse, by step and field', () => {
    const steps: SequenceStep[] = [sms('a', ''), { key: 'a', type: 'wait' }, { key: 'b', type: 'branch', condition: 'replied', ifTrue: 'a', ifFalse: 'next' }];
    const { byStep, general } = groupProblems(builderProblems(steps));
    expect(general).toEqual([]);
    expect(byStep.get(0)?.get('message.en')).toEqual(['Required']);
    expect(byStep.get(1)?.get('key')).toEqual(['Step key a is used twice']);
    expect(byStep.get(1)?.get('')?.[0]).toMatch(/either a duration/);
    expect(byStep.get(2)?.get('ifTrue')).toEqual(['A branch can only go to a later step']);
  });

  it('shows only the rules across steps before a save is tried', () => {
    expect(structuralProblems([sms('a', '')])).toEqual([]);
    expect(structuralProblems([{ key: 'w', type: 'wait', amount: 1, unit: 'days' }]).map((problem) => problem.message)).toEqual([
      'A sequence needs at least one SMS, email or call step',
    ]);
    expect(builderProblems([]).map((problem) => problem.message)).toEqual(['Add at least one step']);
    expect(builderProblems([{ key: 'Bad Key', type: 'call', agentType: 'PRESCREEN' }]).map((problem) => problem.path)).toEqual(['steps.0.key']);
  });
});

describe('the sequence routes’ search params', () => {
  it('list active sequences by default, and open the Steps tab of one', () => {
    expect(sequencesSearch.parse({})).toEqual({ status: 'active' });
    expect(sequencesSearch.parse({ status: 'nonsense' })).toEqual({ status: 'active' });
    expect(sequenceSearch.parse({ tab: 'statistics', status: 'paused', page: '2', enrollment: 'not-an-id' })).toEqual({
      tab: 'statistics',
      status: 'paused',
      page: 2,
    });
    expect(sequenceSearch.parse({ tab: 'other' })).toEqual({ tab: 'steps' });
  });
});
