import { z } from '@hono/zod-openapi';
import { ProcessingRunSchema } from './processing-runs';

/**
 * The demo area (decision 068): the demo organization's status and reset, and what the voice and prescreen
 * demos need beyond the ordinary endpoints. Internal admins only (global scope, or the demo organization active).
 */

export const DemoCountsSchema = z
  .object({
    trials: z.number().int(),
    sites: z.number().int(),
    candidates: z.number().int(),
    prescreenForms: z.number().int(),
    prescreenResults: z.number().int(),
    bookings: z.number().int(),
    calls: z.number().int(),
    smsMessages: z.number().int(),
    chatConversations: z.number().int(),
    voiceAgents: z.number().int(),
    chatAgents: z.number().int(),
    activityEvents: z.number().int(),
  })
  .openapi('DemoCounts');
export type DemoCounts = z.infer<typeof DemoCountsSchema>;

/** GET /api/demo: whether the demo organization exists, when its data was last (re)seeded, and what it holds. */
export const DemoStatusSchema = z
  .object({
    exists: z.boolean(),
    organization: z.object({ id: z.string(), name: z.string(), slug: z.string(), publicId: z.string() }).nullable(),
    /** When the data was last seeded or reset (from the audit trail); null when unknown. */
    lastResetAt: z.string().nullable(),
    counts: z.union([DemoCountsSchema, z.null()]),
    /** The latest reset (a demo_reset processing run): while it is pending or running, a reset starts none. */
    reset: z.union([ProcessingRunSchema, z.null()]),
  })
  .openapi('DemoStatus');
export type DemoStatus = z.infer<typeof DemoStatusSchema>;

/** GET /api/demo/samples: the demo trials (with their published form and voice agent) and a few people to demo with. */
export const DemoSamplesSchema = z
  .object({
    organizationId: z.string(),
    trials: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        status: z.string(),
        formId: z.string().nullable(),
        voiceAgent: z.object({ id: z.string(), name: z.string(), active: z.boolean() }).nullable(),
      }),
    ),
    /** Early-funnel candidates who may be called (phone, call consent), a few per trial. */
    candidates: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        trialId: z.string(),
        city: z.string().nullable(),
        preferredLanguage: z.string(),
        status: z.string(),
      }),
    ),
  })
  .openapi('DemoSamples');
export type DemoSamples = z.infer<typeof DemoSamplesSchema>;

/** POST /api/demo/voice-call: a simulated prescreen call to a demo candidate, or (no candidateId) to a sample person. */
export const DemoVoiceCallSchema = z
  .object({
    candidateId: z.string().uuid().optional(),
    language: z.enum(['en', 'es']).optional(),
  })
  .openapi('DemoVoiceCall');
export type DemoVoiceCallInput = z.infer<typeof DemoVoiceCallSchema>;

/** POST /api/demo/sample-candidate: a fresh sample person linked to a demo trial (the prescreen demo's step 1). */
export const DemoSampleCandidateSchema = z.object({ trialId: z.string().uuid() }).openapi('DemoSampleCandidateInput');
export const DemoSampleCandidateResultSchema = z.object({ candidateId: z.string(), name: z.string() }).openapi('DemoSampleCandidate');
export type DemoSampleCandidate = z.infer<typeof DemoSampleCandidateResultSchema>;
