import {
  AGENT_TOOLS,
  VAPI_TOOLS_PATH,
  VAPI_WEBHOOK_PATH,
  VoiceProviderError,
  type AgentToolName,
  type AssistantSpec,
  type OfferedSlot,
  type ProviderCall,
  type VoicePort,
} from './port';

export interface VapiConfig {
  apiKey: string;
  /** https://api.vapi.ai by default; tests point it at a local fake. */
  apiBaseUrl: string;
  phoneNumberId?: string;
  /** Sent back to us with every server message (X-Vapi-Secret). */
  serverSecret?: string;
  timeoutMs?: number;
}

const TOOL_DESCRIPTIONS: Record<AgentToolName, { description: string; parameters: Record<string, unknown> }> = {
  'set-call-metadata': {
    description:
      "Record the candidate's answer to one prescreen question (questionId and answer), or a metadata key and value (the chosen visit: key booking, value { siteName, localTime }).",
    parameters: {
      type: 'object',
      properties: {
        questionId: { type: 'string' },
        answer: { type: 'string' },
        key: { type: 'string' },
        value: { anyOf: [{ type: 'string' }, { type: 'object', properties: { siteName: { type: 'string' }, localTime: { type: 'string' } } }] },
      },
    },
  },
  'set-sms-metadata': {
    description: 'Record what the candidate said about text messages (e.g. consent).',
    parameters: { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } },
  },
  'update-preferred-language': {
    description: "Store the candidate's preferred language (en or es).",
    parameters: { type: 'object', properties: { language: { type: 'string', enum: ['en', 'es'] } }, required: ['language'] },
  },
  'mark-exit-status': {
    description: 'Record why the call is ending (e.g. completed, not_interested, wrong_number, declined).',
    parameters: { type: 'object', properties: { exitStatus: { type: 'string' }, reason: { type: 'string' } }, required: ['exitStatus'] },
  },
  'switch-language': {
    description: 'Switch the conversation to another language; answers the first message in it.',
    parameters: { type: 'object', properties: { language: { type: 'string', enum: ['en', 'es'] } }, required: ['language'] },
  },
  'switch-transcriber-from-multi-to-current': {
    description: 'Fix the transcriber to the current language.',
    parameters: { type: 'object', properties: { language: { type: 'string' } } },
  },
  'end-prescreen-chat': { description: 'Mark the prescreen complete once every question has been asked.', parameters: { type: 'object', properties: {} } },
  'schedule-callback': {
    description:
      "Schedule (or move) a call back when the person asks to be called later: at is an ISO 8601 time with a zone, localTime is YYYY-MM-DDTHH:mm on the person's clock, or inMinutes. Calls only happen 8 AM to 9 PM their time; the answer says when.",
    parameters: {
      type: 'object',
      properties: { at: { type: 'string' }, localTime: { type: 'string' }, inMinutes: { type: 'number' }, note: { type: 'string' } },
    },
  },
  'scheduled-callback': {
    description: 'Say when the callback already scheduled for this person is, or cancel it with action "cancel".',
    parameters: { type: 'object', properties: { action: { type: 'string', enum: ['read', 'cancel'] } } },
  },
};

/** The system prompt: the script, in each language the agent speaks. */
function systemPrompt(spec: AssistantSpec): string {
  const questions = spec.questions
    .map((question, index) => `${index + 1}. [${question.id}] ${question.phone.en}${question.phone.es ? ` / ${question.phone.es}` : ''}`)
    .join('\n');
  return [
    `You are ${spec.name}, a friendly research assistant calling on behalf of a clinical research site.`,
    `Speak ${spec.languages.join(' or ')}; if the person prefers Spanish, call switch-language.`,
    spec.type === 'PRESCREEN'
      ? `Ask these prescreen questions in order, one at a time. After each answer call set-call-metadata with the questionId and the answer. When done, call end-prescreen-chat, then ask "On a scale of 1 to 5, how would you rate this call?" and call set-call-metadata with key "satisfaction" and the number as value.\n${questions}`
      : 'Help the person book a screening visit. Offer only these times, earliest first: {{offeredSlots}}. When the person picks one, call set-call-metadata with key "booking" and value {"siteName", "localTime"} copied exactly from the chosen entry. If none suits them, say the site will call back.',
    'Never give medical advice. If the person asks not to be called again, call mark-exit-status with exitStatus "do_not_call".',
  ].join('\n\n');
}

/** The Vapi assistant body (POST/PATCH /assistant). */
export function assistantBody(spec: AssistantSpec, serverSecret: string | undefined) {
  const server = (url: string) => ({ url, ...(serverSecret ? { secret: serverSecret } : {}) });
  const base = spec.publicBaseUrl.replace(/\/$/, '');
  return {
    name: spec.name.slice(0, 40),
    firstMessage: spec.firstMessage.en,
    voicemailMessage: spec.voicemailMessage.en,
    voice: { provider: 'vapi', voiceId: spec.voice === 'default' ? 'Elliot' : spec.voice },
    transcriber: { provider: 'deepgram', model: 'nova-3', language: spec.languages.length > 1 ? 'multi' : (spec.languages[0] ?? 'en') },
    model: {
      provider: 'openai',
      model: 'gpt-4o',
      messages: [{ role: 'system', content: systemPrompt(spec) }],
      tools: AGENT_TOOLS.map((name) => ({
        type: 'function',
        function: { name, ...TOOL_DESCRIPTIONS[name] },
        server: server(`${base}${VAPI_TOOLS_PATH}/${name}`),
      })),
    },
    server: server(`${base}${VAPI_WEBHOOK_PATH}`),
    serverMessages: ['assistant-request', 'status-update', 'transcript', 'tool-calls', 'end-of-call-report'],
    analysisPlan: {
      structuredDataPlan: {
        enabled: true,
        schema:
          spec.type === 'PRESCREEN'
            ? {
                type: 'object',
                properties: {
                  answers: { type: 'object', properties: Object.fromEntries(spec.questions.map((question) => [question.id, { type: 'string' }])) },
                },
              }
            : { type: 'object', properties: { booking: { type: 'object', properties: { siteName: { type: 'string' }, localTime: { type: 'string' } } } } },
      },
    },
    metadata: { agentId: spec.agentId, organizationId: spec.organizationId },
  };
}

/** The assistant's template variables for one call: the language and, for scheduling calls, the slots to offer. */
function variables(language: string, slots: OfferedSlot[] | undefined): Record<string, string> {
  if (!slots) return { language };
  const list = slots.map((slot) => JSON.stringify({ siteName: slot.siteName, localTime: slot.localTime, timeZone: slot.timeZone })).join('; ');
  return { language, offeredSlots: list || 'none (no free times: offer a call back)' };
}

/**
 * The Vapi adapter (https://api.vapi.ai, Bearer API key): assistants (POST /assistant, PATCH /assistant/{id}),
 * outbound calls (POST /call with assistantId, phoneNumberId, customer.number and our call id as metadata),
 * cancelling (DELETE /call/{id}), reading a call back (GET /call/{id}), and inbound calls Twilio carries (POST /call
 * with phoneCallProviderBypassEnabled: Vapi answers phoneCallProviderDetails.twiml). Server messages come back to
 * /api/inbound/vapi.
 */
export function createVapiVoice(config: VapiConfig): VoicePort {
  const base = config.apiBaseUrl.replace(/\/$/, '');
  async function request(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  async function request(method: string, path: string, body: unknown, options: { list: true }): Promise<unknown>;
  async function request(method: string, path: string, body: unknown, options: { notFound: 'null' }): Promise<Record<string, unknown> | null>;
  async function request(method: string, path: string, body?: unknown, options?: { notFound?: 'null'; list?: true }): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${config.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new VoiceProviderError(`Vapi unreachable: ${(error as Error).name}`, 'network');
    }
    const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (response.status === 404 && options?.notFound === 'null') return null;
    if (!response.ok) throw new VoiceProviderError(`Vapi refused the request (HTTP ${response.status})`, String(response.status));
    if (options?.list) return answer;
    return answer ?? {};
  }
  return {
    provider: 'vapi',
    attach() {},
    async drain() {},
    async placeCall(call) {
      if (!call.assistantId) throw new VoiceProviderError('The voice agent has no Vapi assistant yet: save it again', 'no_assistant');
      if (!config.phoneNumberId) throw new VoiceProviderError('VAPI_PHONE_NUMBER_ID is not configured', 'no_phone_number');
      const answer = await request('POST', '/call', {
        assistantId: call.assistantId,
        phoneNumberId: config.phoneNumberId,
        customer: { number: call.to },
        metadata: { callId: call.callId, organizationId: call.organizationId },
        assistantOverrides: {
          variableValues: variables(call.language, call.offeredSlots),
          metadata: { callId: call.callId, organizationId: call.organizationId },
        },
      });
      if (typeof answer.id !== 'string') throw new VoiceProviderError('Vapi answered without a call id', 'no_id');
      return { providerCallId: answer.id };
    },
    async answerInbound(call) {
      if (!call.assistantId) throw new VoiceProviderError('The voice agent has no Vapi assistant yet: save it again', 'no_assistant');
      if (!config.phoneNumberId) throw new VoiceProviderError('VAPI_PHONE_NUMBER_ID is not configured', 'no_phone_number');
      // Twilio carries the call; Vapi only joins it (phone call provider bypass) and answers the TwiML that streams it.
      const answer = await request('POST', '/call', {
        assistantId: call.assistantId,
        phoneNumberId: config.phoneNumberId,
        phoneCallProviderBypassEnabled: true,
        ...(call.caller ? { customer: { number: call.caller } } : {}),
        metadata: { callId: call.callId, organizationId: call.organizationId },
        assistantOverrides: {
          variableValues: { ...variables(call.language, call.offeredSlots), callSid: call.twilioCallSid },
          metadata: { callId: call.callId, organizationId: call.organizationId },
        },
      });
      const twiml = (answer.phoneCallProviderDetails as { twiml?: unknown } | undefined)?.twiml;
      if (typeof answer.id !== 'string') throw new VoiceProviderError('Vapi answered without a call id', 'no_id');
      if (typeof twiml !== 'string' || !twiml.includes('<Response')) throw new VoiceProviderError('Vapi answered without TwiML', 'no_twiml');
      return { providerCallId: answer.id, twiml };
    },
    async fetchCall(providerCallId) {
      const answer = await request('GET', `/call/${encodeURIComponent(providerCallId)}`, undefined, { notFound: 'null' });
      if (!answer) return null;
      if (typeof answer.id !== 'string' || typeof answer.status !== 'string')
        throw new VoiceProviderError('Vapi answered a call without id or status', 'bad_call');
      const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
      const record = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
      const call: ProviderCall = { id: answer.id, status: answer.status };
      if (text(answer.endedReason)) call.endedReason = text(answer.endedReason);
      if (text(answer.startedAt)) call.startedAt = text(answer.startedAt);
      if (text(answer.endedAt)) call.endedAt = text(answer.endedAt);
      if (typeof answer.cost === 'number') call.cost = answer.cost;
      // Older calls carry the messages at the top level instead of in the artifact.
      const artifact = record(answer.artifact) ?? (Array.isArray(answer.messages) ? { messages: answer.messages } : undefined);
      if (artifact) call.artifact = artifact;
      if (record(answer.analysis)) call.analysis = record(answer.analysis);
      if (record(answer.metadata)) call.metadata = record(answer.metadata);
      return call;
    },
    async findOwnNumber(number) {
      // GET /phone-number lists the account's numbers ({ id, number, provider, ... }).
      const answer = await request('GET', '/phone-number?limit=1000', undefined, { list: true });
      if (!Array.isArray(answer)) throw new VoiceProviderError('Vapi answered the phone numbers without a list', 'bad_list');
      const found = (answer as Array<Record<string, unknown>>).find((item) => item && item.number === number && typeof item.id === 'string');
      return found ? { providerId: found.id as string } : null;
    },
    async cancelCall(providerCallId) {
      await request('DELETE', `/call/${encodeURIComponent(providerCallId)}`);
    },
    async saveAssistant(spec, assistantId) {
      const body = assistantBody(spec, config.serverSecret);
      const answer = assistantId ? await request('PATCH', `/assistant/${encodeURIComponent(assistantId)}`, body) : await request('POST', '/assistant', body);
      if (typeof answer.id !== 'string') throw new VoiceProviderError('Vapi answered without an assistant id', 'no_id');
      return { assistantId: answer.id };
    },
  };
}
