import { z } from '@hono/zod-openapi';
import { TimestampSchema } from './common';
import { CreateOrganizationSchema } from './organizations';
import type { SequenceStepInput, SequenceTrigger } from './sequences';
import { isValidTimeZone } from './time-zones';
import { TrialStatusSchema } from './trials';
import { ONBOARDING_STEPS } from './onboarding-steps';

/**
 * Onboarding a new customer organization (server: features/onboarding; decision 027). Cohortly's internal
 * admins, with the Cohortly organization active, walk through the steps below; each step is done through the
 * feature that owns it (organizations, users, trials, prescreen forms, chat and voice agents, sequences), and
 * the onboarding row only remembers where the admin is and what was made, so a half-finished onboarding can
 * be continued later.
 */

export { ONBOARDING_STEPS, ONBOARDING_STEP_LABELS, type OnboardingStep } from './onboarding-steps';
export const OnboardingStepSchema = z.enum(ONBOARDING_STEPS);

/** done: what the step makes exists; skipped: the admin went past it without; pending: not reached yet. */
export const ONBOARDING_STEP_STATUSES = ['done', 'skipped', 'pending'] as const;
export type OnboardingStepStatus = (typeof ONBOARDING_STEP_STATUSES)[number];

export const ONBOARDING_LIST_STATUSES = ['open', 'completed', 'all'] as const;

// ---- the organization's sites ----

export const ORGANIZATION_SITES_MAX = 50;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value ? value : undefined));

const siteFields = {
  /** The clinic's name, as the organization calls it. */
  name: z.string().trim().min(1, 'Enter the site name').max(200),
  /** Street and number (one line). */
  address: z.string().trim().min(1, 'Enter the street address').max(300),
  city: optionalText(120),
  /** State or province. */
  region: optionalText(120),
  postalCode: optionalText(20),
  country: optionalText(120),
};

/** A site of the organization: where its visits happen, and the time zone they are booked in. */
export const OrganizationSiteSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    address: z.string(),
    city: z.string().optional(),
    region: z.string().optional(),
    postalCode: z.string().optional(),
    country: z.string().optional(),
    timeZone: z.string(),
  })
  .openapi('OrganizationSite');
export type OrganizationSite = z.infer<typeof OrganizationSiteSchema>;

export const OrganizationSiteInputSchema = z
  .object({
    /** Keeps an existing site (its id); without one the site is new. */
    id: z.string().max(64).optional(),
    ...siteFields,
    /** IANA time zone, e.g. America/Chicago. */
    timeZone: z.string().trim().min(1, 'Choose the time zone').max(64).refine(isValidTimeZone, 'Unknown time zone: choose one from the list'),
  })
  .openapi('OrganizationSiteInput');
export type OrganizationSiteInput = z.input<typeof OrganizationSiteInputSchema>;

/** PUT /api/onboarding/{id}/sites: the organization's whole list of sites (it replaces the list). */
export const SaveOrganizationSitesSchema = z
  .object({ sites: z.array(OrganizationSiteInputSchema).min(1, 'Add at least one site').max(ORGANIZATION_SITES_MAX) })
  .openapi('SaveOrganizationSites');
export type SaveOrganizationSitesInput = z.infer<typeof SaveOrganizationSitesSchema>;

// ---- templates: what the agents and the starter sequence say ----

/** The default chat agent's texts (the agent can be edited afterwards on /admin/chat-agents). */
export const DEFAULT_CHAT_AGENT = {
  name: 'Prescreen chat',
  greeting: {
    en: 'Hi! I can help you find out whether our study could be right for you. It takes about five minutes.',
    es: '¡Hola! Puedo ayudarle a saber si nuestro estudio podría ser adecuado para usted. Toma unos cinco minutos.',
  },
  closingMessage: { en: 'Thank you for answering our questions.', es: 'Gracias por responder nuestras preguntas.' },
} as const;

/** The default prescreen voice agent's texts (editable afterwards on /admin/voice-agents). */
export const DEFAULT_VOICE_AGENT = {
  name: 'Prescreen caller',
  firstMessage: {
    en: 'Hello, this is the research team calling about a study you showed interest in. Do you have five minutes?',
    es: 'Hola, le llama el equipo de investigación sobre un estudio que le interesó. ¿Tiene cinco minutos?',
  },
  voicemailMessage: {
    en: 'Hello, this is the research team about a study you showed interest in. We will call you again soon.',
    es: 'Hola, le llama el equipo de investigación sobre un estudio que le interesó. Le llamaremos de nuevo pronto.',
  },
} as const;

export const STARTER_SEQUENCE_TEMPLATE_KEYS = ['invite-follow-up', 'call-first'] as const;
export type StarterSequenceTemplateKey = (typeof STARTER_SEQUENCE_TEMPLATE_KEYS)[number];

export interface StarterSequenceTemplate {
  key: StarterSequenceTemplateKey;
  name: string;
  description: string;
  triggers: SequenceTrigger[];
  steps: SequenceStepInput[];
}

const STOP_EN = ' Reply STOP to opt out.';
const STOP_ES = ' Responda STOP para no recibir más mensajes.';

/**
 * The starter sequences an onboarding offers, in English and Spanish, with the variables {firstName},
 * {trialTitle} and {organizationName}. They enroll nobody by themselves (no triggers): staff enroll candidates.
 */
export const STARTER_SEQUENCE_TEMPLATES: Record<StarterSequenceTemplateKey, StarterSequenceTemplate> = {
  'invite-follow-up': {
    key: 'invite-follow-up',
    name: 'Invite and follow up',
    description: 'A text invitation; after 2 days without a reply a reminder, and a day later a prescreen call.',
    triggers: [],
    steps: [
      {
        key: 'invite',
        type: 'sms',
        message: {
          en: `Hi {firstName}, {organizationName} is looking for volunteers for {trialTitle}. Reply YES to hear if you may qualify.${STOP_EN}`,
          es: `Hola {firstName}, {organizationName} busca voluntarios para {trialTitle}. Responda SI para saber si puede participar.${STOP_ES}`,
        },
      },
      { key: 'wait-2-days', type: 'wait', amount: 2, unit: 'days' },
      { key: 'replied', type: 'branch', condition: 'replied', ifTrue: 'end', ifFalse: 'next' },
      {
        key: 'reminder',
        type: 'sms',
        message: {
          en: `Hi {firstName}, a reminder from {organizationName}: you may be able to join {trialTitle}. Reply YES and we will call you.${STOP_EN}`,
          es: `Hola {firstName}, un recordatorio de {organizationName}: podría participar en {trialTitle}. Responda SI y le llamaremos.${STOP_ES}`,
        },
      },
      { key: 'wait-1-day', type: 'wait', amount: 1, unit: 'days' },
      { key: 'prescreen-call', type: 'call', agentType: 'PRESCREEN' },
    ],
  },
  'call-first': {
    key: 'call-first',
    name: 'Call first',
    description: 'A prescreen call; when it is missed a text, and a second call two days later unless they reply.',
    triggers: [],
    steps: [
      { key: 'first-call', type: 'call', agentType: 'PRESCREEN' },
      { key: 'missed', type: 'branch', condition: 'call_missed', ifTrue: 'next', ifFalse: 'end' },
      {
        key: 'missed-text',
        type: 'sms',
        message: {
          en: `Hi {firstName}, {organizationName} tried to call you about {trialTitle}. Reply with a good time to call, or YES and we will try again.${STOP_EN}`,
          es: `Hola {firstName}, {organizationName} intentó llamarle sobre {trialTitle}. Responda con una buena hora para llamarle, o SI y lo intentaremos de nuevo.${STOP_ES}`,
        },
      },
      { key: 'wait-2-days', type: 'wait', amount: 2, unit: 'days' },
      { key: 'replied', type: 'branch', condition: 'replied', ifTrue: 'end', ifFalse: 'next' },
      { key: 'second-call', type: 'call', agentType: 'PRESCREEN' },
    ],
  },
};

// ---- requests ----

/** POST /api/onboarding: starts an onboarding by creating the organization. */
export const StartOnboardingSchema = CreateOrganizationSchema.openapi('StartOnboarding');
export type StartOnboardingInput = z.infer<typeof StartOnboardingSchema>;

export const ListOnboardingsQuerySchema = z.object({ status: z.enum(ONBOARDING_LIST_STATUSES).default('open') });

/** PATCH /api/onboarding/{id}: where the admin is (the step a "Continue" opens). */
export const UpdateOnboardingSchema = z.object({ currentStep: OnboardingStepSchema }).openapi('UpdateOnboarding');
export type UpdateOnboardingInput = z.infer<typeof UpdateOnboardingSchema>;

/** POST /api/onboarding/{id}/owner: invites the first owner by email (a pending invitation to another address is revoked). */
export const InviteOwnerSchema = z
  .object({
    email: z
      .email('Enter a valid email address')
      .max(254)
      .transform((value) => value.toLowerCase()),
  })
  .openapi('InviteOnboardingOwner');
export type InviteOwnerInput = z.infer<typeof InviteOwnerSchema>;

/** POST /api/onboarding/{id}/trial: a ClinicalTrials.gov API v2 study record, read into the organization's first trial. */
export const ImportOnboardingTrialSchema = z
  .object({
    study: z.record(z.string(), z.unknown()).openapi({ description: 'A ClinicalTrials.gov API v2 study record (protocolSection...)' }),
    /** Start recruiting at once (otherwise the trial stays a draft to review). */
    startRecruiting: z.boolean().default(false),
  })
  .openapi('ImportOnboardingTrial');
export type ImportOnboardingTrialInput = z.infer<typeof ImportOnboardingTrialSchema>;

/** POST /api/onboarding/{id}/agents: a published prescreen form of the trial, and the default agents asking it. */
export const CreateOnboardingAgentsSchema = z
  .object({ chatAgent: z.boolean().default(true), voiceAgent: z.boolean().default(true) })
  .refine((value) => value.chatAgent || value.voiceAgent, { message: 'Choose at least one agent', path: ['chatAgent'] })
  .openapi('CreateOnboardingAgents');
export type CreateOnboardingAgentsInput = z.infer<typeof CreateOnboardingAgentsSchema>;

/** POST /api/onboarding/{id}/sequence: the starter sequence, from a template. */
export const CreateStarterSequenceSchema = z.object({ template: z.enum(STARTER_SEQUENCE_TEMPLATE_KEYS) }).openapi('CreateStarterSequence');
export type CreateStarterSequenceInput = z.infer<typeof CreateStarterSequenceSchema>;

// ---- answers ----

export const OnboardingStepStateSchema = z.object({ step: OnboardingStepSchema, status: z.enum(ONBOARDING_STEP_STATUSES) });

export const OnboardingOwnerSchema = z.object({
  email: z.string(),
  /** member: they have an account (owner of the organization); invited: the invitation waits; expired: resend it. */
  status: z.enum(['member', 'invited', 'expired']),
  invitationId: z.string().nullable(),
});

export const OnboardingSchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    organizationName: z.string(),
    organizationSlug: z.string(),
    organizationPublicId: z.string(),
    currentStep: OnboardingStepSchema,
    steps: z.array(OnboardingStepStateSchema),
    owner: OnboardingOwnerSchema.nullable(),
    /**
     * Only in the answer to POST /{id}/owner: the link the invitation mail carries, so the admin can hand it over
     * themselves ("Copy invitation link") when no mail server delivers it. Never stored in the clear, never read back.
     */
    ownerInvitationUrl: z.string().optional(),
    sites: z.array(OrganizationSiteSchema),
    trial: z
      .object({
        id: z.string(),
        title: z.string(),
        nctId: z.string().nullable(),
        status: TrialStatusSchema,
        siteCount: z.number().int(),
        ownSiteCount: z.number().int(),
        criteriaCount: z.number().int(),
      })
      .nullable(),
    prescreenForm: z
      .object({ id: z.string(), name: z.string(), status: z.enum(['draft', 'published', 'archived']), questionCount: z.number().int() })
      .nullable(),
    chatAgent: z.object({ id: z.string(), name: z.string(), active: z.boolean() }).nullable(),
    voiceAgent: z.object({ id: z.string(), name: z.string(), active: z.boolean() }).nullable(),
    sequence: z.object({ id: z.string(), name: z.string(), status: z.enum(['active', 'archived']) }).nullable(),
    startedByName: z.string().nullable(),
    completedAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('Onboarding');
export type Onboarding = z.infer<typeof OnboardingSchema>;

export const OnboardingSummarySchema = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    organizationName: z.string(),
    currentStep: OnboardingStepSchema,
    startedByName: z.string().nullable(),
    completedAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('OnboardingSummary');
export type OnboardingSummary = z.infer<typeof OnboardingSummarySchema>;

export const OnboardingListSchema = z.object({ onboardings: z.array(OnboardingSummarySchema), total: z.number().int() }).openapi('OnboardingList');
export type OnboardingList = z.infer<typeof OnboardingListSchema>;

/** What opens the screen that fixes a checklist item: an onboarding step, or another screen (with the row's id). */
export const CHECKLIST_FIX_TARGETS = ['step', 'trial', 'prescreen-form', 'chat-agents', 'voice-agents', 'sequences', 'phone-numbers', 'users'] as const;
export type ChecklistFixTarget = (typeof CHECKLIST_FIX_TARGETS)[number];

export const CHECKLIST_KEYS = ['owner', 'sites', 'trial', 'recruiting', 'prescreen_form', 'chat_agent', 'voice_agent', 'sequence', 'sms', 'voice'] as const;
export type ChecklistKey = (typeof CHECKLIST_KEYS)[number];

/** done; missing: something to do; attention: works, but not for real yet (a simulator in use). */
export const CHECKLIST_STATES = ['done', 'missing', 'attention'] as const;
export type ChecklistState = (typeof CHECKLIST_STATES)[number];

export const ChecklistItemSchema = z
  .object({
    key: z.enum(CHECKLIST_KEYS),
    label: z.string(),
    state: z.enum(CHECKLIST_STATES),
    /** What is there, or what is missing, in a sentence. */
    detail: z.string(),
    fix: z.object({ label: z.string(), target: z.enum(CHECKLIST_FIX_TARGETS), step: OnboardingStepSchema.optional(), id: z.string().optional() }).nullable(),
  })
  .openapi('OnboardingChecklistItem');
export type ChecklistItem = z.infer<typeof ChecklistItemSchema>;

export const OnboardingChecklistSchema = z
  .object({
    onboardingId: z.string(),
    organizationId: z.string(),
    items: z.array(ChecklistItemSchema),
    doneCount: z.number().int(),
    total: z.number().int(),
  })
  .openapi('OnboardingChecklist');
export type OnboardingChecklist = z.infer<typeof OnboardingChecklistSchema>;
