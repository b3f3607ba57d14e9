import { z } from '@hono/zod-openapi';
import { IdFilterSchema, OrganizationIdListSchema, TimestampSchema } from './common';
import { VoiceAgentTypeSchema, WEEKDAYS } from './voice';
import { CANDIDATE_STATUSES } from './candidate-status';

/**
 * Outreach sequences (server: features/sequences, decision 026): ordered steps (SMS, email, call, wait,
 * branch) a candidate goes through until they reply, book, opt out, are screened out or are stopped.
 * Steps live in versions: editing a sequence that has people in it makes a new version, and those people
 * finish on the version they started.
 */

export const SEQUENCE_STATUSES = ['active', 'archived'] as const;
export type SequenceStatus = (typeof SEQUENCE_STATUSES)[number];

export const SEQUENCE_STEP_TYPES = ['sms', 'email', 'call', 'wait', 'branch'] as const;
export type SequenceStepType = (typeof SEQUENCE_STEP_TYPES)[number];

/** What a branch step looks at: what happened since the candidate entered the sequence. */
export const BRANCH_CONDITIONS = ['replied', 'call_answered', 'call_missed', 'call_voicemail', 'prescreen_pass', 'prescreen_fail'] as const;
export type BranchCondition = (typeof BRANCH_CONDITIONS)[number];

/** Events that enroll a candidate into every active sequence listening for them (of the same trial, when the sequence has one). */
export const SEQUENCE_TRIGGERS = ['candidate_imported', 'missed_call_no_callback', 'prescreen_potential', 'visit_no_show'] as const;
export type SequenceTrigger = (typeof SEQUENCE_TRIGGERS)[number];

export const ENROLLMENT_STATUSES = ['active', 'paused', 'completed', 'exited'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/** Why an enrollment ended early. */
export const EXIT_REASONS = ['replied', 'booked', 'opted_out', 'do_not_contact', 'status_changed', 'stopped', 'prescreen_failed', 'sequence_archived'] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

/** Where an enrollment came from. */
export const ENROLLMENT_SOURCES = ['manual', 'filter', 'trial_matcher', ...SEQUENCE_TRIGGERS] as const;
export type EnrollmentSource = (typeof ENROLLMENT_SOURCES)[number];

/** A timeline entry of one enrollment. */
export const TIMELINE_KINDS = [
  'enrolled',
  'sent',
  'blocked',
  'failed',
  'moved',
  'waited',
  'branched',
  'paused',
  'resumed',
  'completed',
  'exited',
  'version',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const SEQUENCE_NAME_MAX = 120;
export const SEQUENCE_MESSAGE_MAX = 1600;
export const SEQUENCE_EMAIL_SUBJECT_MAX = 200;
export const SEQUENCE_EMAIL_BODY_MAX = 10_000;
export const SEQUENCE_MAX_STEPS = 30;
/** Bulk enrollment takes at most this many candidates per request (a saved filter pages through more). */
export const SEQUENCE_BULK_MAX = 5000;
/** Variables a message may use, as {name}. */
export const SEQUENCE_VARIABLES = ['firstName', 'lastName', 'trialTitle', 'organizationName', 'siteAddress'] as const;
export type SequenceVariable = (typeof SEQUENCE_VARIABLES)[number];

const stepKey = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'Lower-case letters, digits and dashes, at most 40')
  .openapi({ description: 'Stable key of the step across versions (statistics and branch targets use it).', example: 'first-text' });

/** A message in English, with an optional Spanish version for candidates who prefer Spanish. */
const bilingual = (max: number) =>
  z.object({
    en: z.string().trim().min(1, 'Required').max(max),
    // Optional outside the transform: absent in JSON when there is no Spanish version, as the document says.
    es: z
      .string()
      .trim()
      .max(max)
      .transform((value) => (value ? value : undefined))
      .optional(),
  });

/** Where a branch goes: the next step, another step by key, or out of the sequence (completed). */
const BranchTargetSchema = z.union([z.literal('next'), z.literal('end'), stepKey]);

const SmsStepSchema = z.object({ key: stepKey, type: z.literal('sms'), message: bilingual(SEQUENCE_MESSAGE_MAX) });
const EmailStepSchema = z.object({
  key: stepKey,
  type: z.literal('email'),
  subject: bilingual(SEQUENCE_EMAIL_SUBJECT_MAX),
  body: bilingual(SEQUENCE_EMAIL_BODY_MAX),
});
const CallStepSchema = z.object({ key: stepKey, type: z.literal('call'), agentType: VoiceAgentTypeSchema });
const WaitStepSchema = z.object({
  key: stepKey,
  type: z.literal('wait'),
  /** Wait a while (hours or days)... */
  amount: z.number().int().min(1).max(365).optional(),
  unit: z.enum(['minutes', 'hours', 'days']).optional(),
  /** ...or until a weekday (any day when absent) at a local time of the candidate. */
  untilWeekday: z.enum(WEEKDAYS).optional(),
  untilTime: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 24-hour')
    .optional(),
});
const BranchStepSchema = z.object({
  key: stepKey,
  type: z.literal('branch'),
  condition: z.enum(BRANCH_CONDITIONS),
  /** Where to go when the condition holds / does not. */
  ifTrue: BranchTargetSchema,
  ifFalse: BranchTargetSchema,
});

export const SequenceStepSchema = z
  .discriminatedUnion('type', [SmsStepSchema, EmailStepSchema, CallStepSchema, WaitStepSchema, BranchStepSchema])
  .openapi('SequenceStep');
export type SequenceStep = z.infer<typeof SequenceStepSchema>;
export type SequenceStepInput = z.input<typeof SequenceStepSchema>;

/** The rules a list of steps must keep; the same check runs in the builder and on the server. */
export function stepProblems(steps: SequenceStep[]): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const keys = new Map<string, number>();
  steps.forEach((step, index) => {
    if (keys.has(step.key)) problems.push({ path: `steps.${index}.key`, message: `Step key ${step.key} is used twice` });
    keys.set(step.key, index);
    if (step.type === 'wait') {
      const byDuration = step.amount !== undefined || step.unit !== undefined;
      const byClock = step.untilTime !== undefined || step.untilWeekday !== undefined;
      if (byDuration === byClock)
        problems.push({
          path: `steps.${index}`,
          message: 'A wait is either a duration (amount and unit) or a local time (untilTime, optionally untilWeekday)',
        });
      else if (byDuration && (step.amount === undefined || step.unit === undefined))
        problems.push({ path: `steps.${index}`, message: 'Give both amount and unit' });
      else if (byClock && !step.untilTime) problems.push({ path: `steps.${index}.untilTime`, message: 'Give the local time to wait until' });
    }
  });
  steps.forEach((step, index) => {
    if (step.type !== 'branch') return;
    for (const field of ['ifTrue', 'ifFalse'] as const) {
      const target = step[field];
      if (target === 'next' || target === 'end') continue;
      const targetIndex = keys.get(target);
      if (targetIndex === undefined) problems.push({ path: `steps.${index}.${field}`, message: `No step has the key ${target}` });
      // Forward only: a sequence always ends, and nobody is texted in a loop.
      else if (targetIndex <= index) problems.push({ path: `steps.${index}.${field}`, message: 'A branch can only go to a later step' });
    }
  });
  const messages = steps.filter((step) => step.type !== 'wait' && step.type !== 'branch');
  if (steps.length && !messages.length) problems.push({ path: 'steps', message: 'A sequence needs at least one SMS, email or call step' });
  return problems;
}

const StepsSchema = z
  .array(SequenceStepSchema)
  .min(1, 'Add at least one step')
  .max(SEQUENCE_MAX_STEPS)
  .superRefine((steps, context) => {
    for (const problem of stepProblems(steps))
      context.addIssue({
        code: 'custom',
        path: problem.path
          .split('.')
          .slice(1)
          .map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
        message: problem.message,
      });
  });

export const SequenceSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    trialId: z.string().nullable(),
    trialTitle: z.string().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(SEQUENCE_STATUSES),
    triggers: z.array(z.enum(SEQUENCE_TRIGGERS)),
    /** A reply ends the enrollment (on by default); off, a branch can act on the reply instead. */
    exitOnReply: z.boolean(),
    currentVersion: z.number().int(),
    steps: z.array(SequenceStepSchema),
    activeEnrollments: z.number().int(),
    totalEnrollments: z.number().int(),
    /** Enrollments that ended with a reply or a booking, over all enrollments (0..1), null with none. */
    conversion: z.number().nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('Sequence');
export type Sequence = z.infer<typeof SequenceSchema>;

export const SequenceListSchema = z.object({ sequences: z.array(SequenceSchema), total: z.number().int() }).openapi('SequenceList');

export const ListSequencesQuerySchema = z.object({
  organizationIds: OrganizationIdListSchema.optional(),
  organizationId: IdFilterSchema.optional(),
  trialId: IdFilterSchema.optional(),
  status: z.enum([...SEQUENCE_STATUSES, 'all']).optional(),
});

export const CreateSequenceSchema = z
  .object({
    organizationId: IdFilterSchema.optional(),
    trialId: IdFilterSchema.nullable().optional(),
    name: z.string().trim().min(1, 'Required').max(SEQUENCE_NAME_MAX),
    description: z.string().trim().max(1000).nullable().optional(),
    triggers: z.array(z.enum(SEQUENCE_TRIGGERS)).max(SEQUENCE_TRIGGERS.length).default([]),
    exitOnReply: z.boolean().default(true),
    steps: StepsSchema,
  })
  .openapi('CreateSequence');
export type CreateSequenceInput = z.infer<typeof CreateSequenceSchema>;

export const UpdateSequenceSchema = z
  .object({
    name: z.string().trim().min(1, 'Required').max(SEQUENCE_NAME_MAX).optional(),
    description: z.string().trim().max(1000).nullable().optional(),
    trialId: IdFilterSchema.nullable().optional(),
    triggers: z.array(z.enum(SEQUENCE_TRIGGERS)).max(SEQUENCE_TRIGGERS.length).optional(),
    exitOnReply: z.boolean().optional(),
    steps: StepsSchema.optional(),
    status: z.enum(SEQUENCE_STATUSES).optional(),
  })
  .openapi('UpdateSequence');
export type UpdateSequenceInput = z.infer<typeof UpdateSequenceSchema>;

export const SequenceSaveResultSchema = z
  .object({
    sequence: SequenceSchema,
    /** True when the steps changed while people were enrolled: they finish on the previous version. */
    newVersion: z.boolean(),
  })
  .openapi('SequenceSaveResult');

// ---- enrollments ----

export const EnrollmentSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    sequenceId: z.string(),
    sequenceVersion: z.number().int(),
    candidateId: z.string(),
    candidateName: z.string(),
    /** The candidate's time zone, in which the next send time is shown. */
    timeZone: z.string(),
    status: z.enum(ENROLLMENT_STATUSES),
    exitReason: z.enum(EXIT_REASONS).nullable(),
    source: z.enum(ENROLLMENT_SOURCES),
    /** The step the candidate is at (0-based), and its key and type; null once finished. */
    currentStep: z.number().int().nullable(),
    currentStepKey: z.string().nullable(),
    currentStepType: z.enum(SEQUENCE_STEP_TYPES).nullable(),
    nextRunAt: TimestampSchema.nullable(),
    enrolledAt: TimestampSchema,
    endedAt: TimestampSchema.nullable(),
  })
  .openapi('SequenceEnrollment');
export type Enrollment = z.infer<typeof EnrollmentSchema>;

export const ListEnrollmentsQuerySchema = z.object({
  status: z.enum([...ENROLLMENT_STATUSES, 'all']).optional(),
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const EnrollmentListSchema = z.object({ enrollments: z.array(EnrollmentSchema), total: z.number().int() }).openapi('SequenceEnrollmentList');

/** Enroll by ids, or by a saved filter (the candidates list's search params). */
export const EnrollSchema = z
  .object({
    candidateIds: z.array(IdFilterSchema).min(1).max(SEQUENCE_BULK_MAX).optional(),
    filter: z
      .object({
        status: z.enum(CANDIDATE_STATUSES).optional(),
        trialId: IdFilterSchema.optional(),
        search: z.string().trim().max(100).optional(),
      })
      .optional(),
    source: z.enum(['manual', 'filter', 'trial_matcher']).optional(),
    /** Start at this time instead of now (the first step still respects the contact window). */
    startAt: TimestampSchema.optional(),
  })
  .refine((value) => Boolean(value.candidateIds) !== Boolean(value.filter), { message: 'Give candidateIds or a filter, not both' })
  .openapi('EnrollInSequence');
export type EnrollInput = z.infer<typeof EnrollSchema>;

export const EnrollRefusalSchema = z.object({ candidateId: z.string(), candidateName: z.string(), reason: z.string() });
export const EnrollResultSchema = z
  .object({
    enrolled: z.number().int(),
    alreadyEnrolled: z.number().int(),
    refused: z.array(EnrollRefusalSchema),
    /** Refusals beyond the first 100 are only counted. */
    refusedCount: z.number().int(),
    /**
     * A filter matching more people than one request enrolls (SEQUENCE_ENROLL_IN_REQUEST) is enrolled in the
     * background: the answer is 202 with the processing run (its progress and per-person outcomes at
     * /admin/processed-runs/{id}), and the counts above are 0 until it is done.
     */
    run: z.object({ id: z.string(), total: z.number().int() }).optional(),
  })
  .openapi('EnrollResult');
/** How many people one enrollment request enrolls at once; a larger filter becomes a processing run. */
export const SEQUENCE_ENROLL_IN_REQUEST = 1_000;
export type EnrollResult = z.infer<typeof EnrollResultSchema>;

export const UnenrollSchema = z.object({ candidateIds: z.array(IdFilterSchema).min(1).max(SEQUENCE_BULK_MAX) }).openapi('UnenrollFromSequence');

export const EnrollmentActionSchema = z.object({ action: z.enum(['pause', 'resume', 'stop']) }).openapi('EnrollmentAction');

export const TimelineEntrySchema = z
  .object({
    id: z.string(),
    kind: z.enum(TIMELINE_KINDS),
    stepIndex: z.number().int().nullable(),
    stepKey: z.string().nullable(),
    stepType: z.enum(SEQUENCE_STEP_TYPES).nullable(),
    /** Plain words for the coordinator ("SMS sent", "Moved to 08:00 (quiet hours)"). */
    summary: z.string(),
    /** E.g. reason, movedTo, smsMessageId, callId, branch result. Never a message body. */
    details: z.record(z.string(), z.unknown()),
    at: TimestampSchema,
  })
  .openapi('SequenceTimelineEntry');
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

export const EnrollmentDetailSchema = z
  .object({ enrollment: EnrollmentSchema, steps: z.array(SequenceStepSchema), timeline: z.array(TimelineEntrySchema) })
  .openapi('SequenceEnrollmentDetail');

export const CandidateEnrollmentsSchema = z
  .object({ enrollments: z.array(EnrollmentSchema.extend({ sequenceName: z.string() })) })
  .openapi('CandidateSequenceEnrollments');

// ---- statistics ----

export const StepStatisticsSchema = z
  .object({
    stepIndex: z.number().int(),
    key: z.string(),
    type: z.enum(SEQUENCE_STEP_TYPES),
    /** Candidates who reached the step. */
    reached: z.number().int(),
    sent: z.number().int(),
    blocked: z.number().int(),
    failed: z.number().int(),
    delivered: z.number().int(),
    /** Replied after this step and before the next send. */
    replied: z.number().int(),
    answered: z.number().int(),
    booked: z.number().int(),
    optedOut: z.number().int(),
  })
  .openapi('SequenceStepStatistics');
export type StepStatistics = z.infer<typeof StepStatisticsSchema>;

export const SequenceStatisticsSchema = z
  .object({
    version: z.number().int(),
    steps: z.array(StepStatisticsSchema),
    enrollments: z.record(z.enum(ENROLLMENT_STATUSES), z.number().int()),
    exits: z.record(z.string(), z.number().int()),
  })
  .openapi('SequenceStatistics');
export type SequenceStatistics = z.infer<typeof SequenceStatisticsSchema>;

export const StatisticsQuerySchema = z.object({ version: z.coerce.number().int().min(1).optional() });

/** Message preview with one real candidate's variables, in both languages. */
export const PreviewSchema = z
  .object({
    step: SequenceStepSchema,
    candidateId: IdFilterSchema.optional(),
    trialId: IdFilterSchema.nullable().optional(),
    organizationId: IdFilterSchema.optional(),
  })
  .openapi('SequencePreviewRequest');
export const PreviewResultSchema = z
  .object({
    candidateName: z.string().nullable(),
    en: z.object({ subject: z.string().nullable(), text: z.string() }),
    es: z.object({ subject: z.string().nullable(), text: z.string() }),
    /** Variables with no value for this candidate: the message would not be sent. */
    missing: z.array(z.string()),
  })
  .openapi('SequencePreview');
export type PreviewResult = z.infer<typeof PreviewResultSchema>;
