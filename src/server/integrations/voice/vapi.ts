import { VAPI_TOOLS_PATH, VAPI_WEBHOOK_PATH, VOICE_TOOLS, VoiceProviderError, type AssistantSpec, type VoicePort, type VoiceToolName } from './port';

export interface VapiConfig {
  apiKey: string;
  /** https://api.vapi.ai by default; tests point it at a local fake. */
  apiBaseUrl: string;
  phoneNumberId?: string;
  /** Sent back to us with every server message (X-Vapi-Secret). */
  serverSecret?: string;
  timeoutMs?: number;
}

const TOOL_DESCRIPTIONS: Record<VoiceToolName, { description: string; parameters: Record<string, unknown> }> = {
  'set-call-metadata': {
    description: "Record the candidate's answer to one prescreen question (questionId and answer), or a metadata key and value.",
    parameters: { type: 'object', properties: { questionId: { type: 'string' }, answer: { type: 'string' }, key: { type: 'string' }, value: { type: 'string' } } },
  },
  'set-sms-metadata': { description: 'Record what the candidate said about text messages (e.g. consent).', parameters: { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } } },
  'update-preferred-language': { description: "Store the candidate's preferred language (en or es).", parameters: { type: 'object', properties: { language: { type: 'string', enum: ['en', 'es'] } }, required: ['language'] } },
  'mark-exit-status': { description: 'Record why the call is ending (e.g. completed, not_interested, wrong_number, declined).', parameters: { type: 'object', properties: { exitStatus: { type: 'string' }, reason: { type: 'string' } }, required: ['exitStatus'] } },
  'switch-language': { description: 'Switch the conversation to another language; answers the first message in it.', parameters: { type: 'object', properties: { language: { type: 'string', enum: ['en', 'es'] } }, required: ['language'] } },
  'switch-transcriber-from-multi-to-current': { description: 'Fix the transcriber to the current language.', parameters: { type: 'object', properties: { language: { type: 'string' } } } },
  'end-prescreen-chat': { description: 'Mark the prescreen complete once every question has been asked.', parameters: { type: 'object', properties: {} } },
};

/** The system prompt: the script, in each language the agent speaks. */
function systemPrompt(spec: AssistantSpec): string {
  const questions = spec.questions.map((question, index) => `${index + 1}. [${question.id}] ${question.phone.en}${question.phone.es ? ` / ${question.phone.es}` : ''}`).join('\n');
  return [
    `You are ${spec.name}, a friendly research assistant calling on behalf of a clinical research site.`,
    `Speak ${spec.languages.join(' or ')}; if the person prefers Spanish, call switch-language.`,
    spec.type === 'PRESCREEN'
      ? `Ask these prescreen questions in order, one at a time. After each answer call set-call-metadata with the questionId and the answer. When done, call end-prescreen-chat.\n${questions}`
      : 'Help the person book a site visit.',
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
    transcriber: { provider: 'deepgram', model: 'nova-3', language: spec.languages.length > 1 ? 'multi' : spec.languages[0] ?? 'en' },
    model: {
      provider: 'openai',
      model: 'gpt-4o',
      messages: [{ role: 'system', content: systemPrompt(spec) }],
      tools: VOICE_TOOLS.map((name) => ({ type: 'function', function: { name, ...TOOL_DESCRIPTIONS[name] }, server: server(`${base}${VAPI_TOOLS_PATH}/${name}`) })),
    },
    server: server(`${base}${VAPI_WEBHOOK_PATH}`),
    serverMessages: ['assistant-request', 'status-update', 'transcript', 'tool-calls', 'end-of-call-report'],
    analysisPlan: {
      structuredDataPlan: {
        enabled: true,
        schema: { type: 'object', properties: { answers: { type: 'object', properties: Object.fromEntries(spec.questions.map((question) => [question.id, { type: 'string' }])) } } },
      },
    },
    metadata: { agentId: spec.agentId, organizationId: spec.organizationId },
  };
}

/**
 * The Vapi adapter (https://api.vapi.ai, Bearer API key): assistants (POST /assistant, PATCH /assistant/{id}),
 * outbound calls (POST /call with assistantId, phoneNumberId, customer.number and our call id as metadata),
 * cancelling (DELETE /call/{id}). Server messages come back to /api/inbound/vapi.
 */
export function createVapiVoice(config: VapiConfig): VoicePort {
  const base = config.apiBaseUrl.replace(/\/$/, '');
  async function request(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
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
    if (!response.ok) throw new VoiceProviderError(`Vapi refused the request (HTTP ${response.status})`, String(response.status));
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
        assistantOverrides: { variableValues: { language: call.language }, metadata: { callId: call.callId, organizationId: call.organizationId } },
      });
      if (typeof answer.id !== 'string') throw new VoiceProviderError('Vapi answered without a call id', 'no_id');
      return { providerCallId: answer.id };
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
