/** The voice port: every call is placed (and every assistant configured) through it. Features use features/calls/service.ts. */

export type VoiceProvider = 'simulator' | 'vapi';

/** How the simulator's synthetic person behaves; ignored by Vapi. 'ring' rings and never answers (until cancelled). */
export const SIMULATION_MODES = ['answer', 'no_answer', 'busy', 'voicemail', 'hang_up', 'spanish', 'ring'] as const;
export type SimulationMode = (typeof SIMULATION_MODES)[number];

export interface LocalizedLine {
  en: string;
  es?: string;
}

/** One question of the agent's script, as the simulator plays it. */
export interface ScriptQuestion {
  id: string;
  type: 'yes_no' | 'number' | 'single_choice' | 'multiple_choice' | 'date' | 'text';
  phone: LocalizedLine;
  options?: Array<{ value: string; label: LocalizedLine }>;
}

/** One clinical fact of the candidate (a condition, a medication, a lab value) as the synthetic person knows it. */
export interface SimulatedFact {
  name: string;
  status: 'present' | 'history' | 'absent' | null;
  value: number | null;
}

/** What the simulator's synthetic person knows of themselves (from the candidate record). */
export interface SimulatedPerson {
  dateOfBirth: string | null;
  sex: string;
  customFields: Record<string, string | number | boolean | null>;
  /** The candidate's clinical facts (notes read, records imported); absent when not looked up. */
  facts?: SimulatedFact[];
}

export interface PlaceCallRequest {
  /** Our call id: sent as metadata.callId so server messages find the call even before the provider id is stored. */
  callId: string;
  organizationId: string;
  /** E.164. */
  to: string;
  from: string | null;
  language: 'en' | 'es';
  assistantId: string | null;
  firstMessage: LocalizedLine;
  voicemailMessage: LocalizedLine;
  questions: ScriptQuestion[];
  person: SimulatedPerson;
  simulate: SimulationMode;
  /** SITE_VISIT_SCHEDULING calls: the free visit slots the agent offers, earliest first. */
  offeredSlots?: OfferedSlot[];
}

/** A visit slot a scheduling agent offers: wall-clock time at the site, in the site's time zone. */
export interface OfferedSlot {
  /** The trial site's id (slots offered before sites had ids have none). */
  siteId?: string;
  /** What the agent says and the person picks: the facility and its city ("Research Site, Chicago"). */
  siteName: string;
  /** YYYY-MM-DDTHH:mm at the site. */
  localTime: string;
  timeZone: string;
}

/** A call to one of our numbers that Twilio carries (POST /api/inbound/): the provider joins it to the agent. */
export interface InboundCallRequest {
  /** Our call id (metadata.callId), stored before the provider is asked. */
  callId: string;
  organizationId: string;
  /** Twilio's CallSid of the inbound leg. */
  twilioCallSid: string;
  /** The caller, E.164 when Twilio knows it. */
  caller: string | null;
  /** Our number that was called (the agent's fromNumber). */
  calledNumber: string;
  language: 'en' | 'es';
  assistantId: string | null;
  firstMessage: LocalizedLine;
  voicemailMessage: LocalizedLine;
  questions: ScriptQuestion[];
  /** What the simulator's synthetic caller knows of themselves; null for an unknown caller. */
  person: SimulatedPerson | null;
  simulate: SimulationMode;
  offeredSlots?: OfferedSlot[];
}

/** What the provider says about a call it placed (Vapi's GET /call/{id}, a subset). */
export interface ProviderCall {
  id: string;
  /** Vapi's status: scheduled, queued, ringing, in-progress, forwarding, ended. */
  status: string;
  endedReason?: string;
  startedAt?: string;
  endedAt?: string;
  cost?: number;
  artifact?: Record<string, unknown>;
  analysis?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface AssistantSpec {
  /** Our agent id (assistant metadata). */
  agentId: string;
  organizationId: string;
  name: string;
  type: 'PRESCREEN' | 'SITE_VISIT_SCHEDULING';
  languages: string[];
  voice: string;
  firstMessage: LocalizedLine;
  voicemailMessage: LocalizedLine;
  questions: ScriptQuestion[];
  /** PUBLIC_BASE_URL: the server URL and tool URLs are built from it. */
  publicBaseUrl: string;
}

/** Posts one server message to our own webhook (set by createApp: the simulator's way back into the app). */
export type Deliver = (payload: unknown) => Promise<{ status: number; body: unknown }>;

export interface VoicePort {
  readonly provider: VoiceProvider;
  placeCall(request: PlaceCallRequest): Promise<{ providerCallId: string }>;
  /** Ends a call that has not been answered yet. */
  cancelCall(providerCallId: string): Promise<void>;
  /** Joins an inbound Twilio call to the agent: the TwiML to answer Twilio with, and the provider's call id. */
  answerInbound(request: InboundCallRequest): Promise<{ providerCallId: string; twiml: string }>;
  /** The provider's view of a call (reconciliation); null when it does not know the id. */
  fetchCall(providerCallId: string): Promise<ProviderCall | null>;
  /** Creates (no id) or updates the provider's assistant; null when the provider has none (the simulator). */
  saveAssistant(spec: AssistantSpec, assistantId: string | null): Promise<{ assistantId: string } | null>;
  /**
   * Whether the number (E.164) is one of the configured provider account's numbers, with the provider's id
   * for it (Vapi: GET /phone-number). Absent on the simulator, which owns no numbers.
   */
  findOwnNumber?(number: string): Promise<{ providerId: string } | null>;
  /** Wires the way back into the app (the simulator's server messages). */
  attach(deliver: Deliver): void;
  /** Resolves when every conversation started so far has finished (tests, the demo). */
  drain(): Promise<void>;
}

/** The provider refused or could not be reached; safe to show (no request data in the message). */
export class VoiceProviderError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The tools the agent may call, under /api/functions/vapi/<name>. */
export const VOICE_TOOLS = [
  'set-call-metadata',
  'set-sms-metadata',
  'update-preferred-language',
  'mark-exit-status',
  'switch-language',
  'switch-transcriber-from-multi-to-current',
  'end-prescreen-chat',
] as const;
export type VoiceToolName = (typeof VOICE_TOOLS)[number];
/** The callback tools (features/callbacks/tools.ts): POST schedules, GET reads, DELETE cancels. */
export const CALLBACK_TOOLS = ['schedule-callback', 'scheduled-callback'] as const;
export type CallbackToolName = (typeof CALLBACK_TOOLS)[number];
/** Every tool an assistant is given. */
export const AGENT_TOOLS = [...VOICE_TOOLS, ...CALLBACK_TOOLS] as const;
export type AgentToolName = (typeof AGENT_TOOLS)[number];

export const VAPI_WEBHOOK_PATH = '/api/inbound/vapi';
export const VAPI_TOOLS_PATH = '/api/functions/vapi';

/** Text for XML content and attribute values (TwiML). */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);
}

export const TWIML_PROLOG = '<?xml version="1.0" encoding="UTF-8"?>';

/** A <Say> in the caller's language, with a Polly voice that speaks it (an invalid voice/language pair fails the verb). */
export function twimlSay(text: string, language: 'en' | 'es'): string {
  const voice = language === 'es' ? 'voice="Polly.Lupe" language="es-US"' : 'voice="Polly.Joanna" language="en-US"';
  return `<Say ${voice}>${escapeXml(text)}</Say>`;
}
