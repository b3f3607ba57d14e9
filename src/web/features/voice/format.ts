import type { Call, VoiceAgentType } from '../../../contract/voice';

export const AGENT_TYPE_LABELS: Record<VoiceAgentType, string> = {
  PRESCREEN: 'Prescreen',
  SITE_VISIT_SCHEDULING: 'Site-visit scheduling',
};

export const CALL_STATUS_LABELS: Record<Call['status'], string> = {
  queued: 'Queued',
  ringing: 'Ringing',
  in_progress: 'In progress',
  ended: 'Ended',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const OUTCOME_LABELS: Record<string, string> = {
  completed: 'Completed',
  no_answer: 'No answer',
  busy: 'Busy',
  voicemail: 'Voicemail',
  failed: 'Failed',
  hung_up: 'Hung up',
  declined: 'Declined',
};

export const CALL_FILTER_LABELS = {
  all: 'All calls',
  failedPrescreen: 'Failed prescreens',
  failedScheduling: 'Failed scheduling',
} as const;

export const DEFAULT_VOICE = 'default';

export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

export function formatCost(cost: number | null): string {
  return cost === null ? '—' : `$${cost.toFixed(2)}`;
}

/** Provider event and message codes in words, for the call's events and its log. */
const EVENT_WORDS: Record<string, string> = {
  'status-update': 'Status changed',
  transcript: 'Words transcribed',
  'conversation-update': 'Conversation updated',
  'tool-calls': 'Agent used a tool',
  'end-of-call-report': 'Call report received',
  'speech-update': 'Someone spoke',
  hang: 'Line went quiet',
  'assistant-request': 'Incoming call answered',
  'user-interrupted': 'Person interrupted',
  'transfer-destination-request': 'Transfer asked for',
};
export const callEventWords = (type: string) => EVENT_WORDS[type] ?? `${type.charAt(0).toUpperCase()}${type.slice(1).replace(/[-_]/g, ' ')}`;

/** The agent's tools (the provider calls them by these names) as what they do. */
const TOOL_WORDS: Record<string, string> = {
  'set-call-metadata': 'Recorded an answer',
  'set-sms-metadata': 'Recorded the text-message wishes',
  'update-preferred-language': 'Saved the preferred language',
  'mark-exit-status': 'Recorded why the call ends',
  'switch-language': 'Switched language',
  'switch-transcriber-from-multi-to-current': 'Kept to the current language',
  'end-prescreen-chat': 'Marked the prescreen complete',
  'schedule-callback': 'Scheduled a call back',
  'scheduled-callback': 'Looked up the call back',
};
/** A provider's code in words ("customer-ended-call" -> "the person ended call"): who is who, no dashes. */
const codeWords = (code: string) =>
  code
    .replace(/[-_.]+/g, ' ')
    .replace(/\bcustomer\b/g, 'the person')
    .replace(/\bassistant\b/g, 'the agent')
    .trim();
export const toolWords = (name: string) => TOOL_WORDS[name] ?? `${codeWords(name).charAt(0).toUpperCase()}${codeWords(name).slice(1)}`;

/** Why the provider says a call ended (Vapi's endedReason), completing "The call ended: …". */
const ENDED_WORDS: Record<string, string> = {
  'customer-ended-call': 'the person hung up',
  'assistant-ended-call': 'the agent ended it',
  'assistant-said-end-call-phrase': 'the agent said goodbye',
  'customer-did-not-answer': 'no answer',
  'customer-busy': 'the line was busy',
  voicemail: 'it reached voicemail',
  'silence-timed-out': 'nobody spoke for too long',
  'exceeded-max-duration': 'it reached the longest call allowed',
  'assistant-forwarded-call': 'the agent transferred it',
  'manually-canceled': 'it was cancelled',
};
function endedWords(reason: string): string {
  if (ENDED_WORDS[reason]) return ENDED_WORDS[reason];
  if (/error|failed|fault|unavailable/.test(reason)) return `the provider reported a failure (${codeWords(reason)})`;
  return codeWords(reason);
}
const STATUS_WORDS: Record<string, string> = {
  scheduled: 'Waiting to dial',
  queued: 'Waiting to dial',
  ringing: 'Ringing',
  'in-progress': 'Call in progress',
  forwarding: 'Being transferred',
  ended: 'The call ended',
};

/**
 * A log line's summary as the server writes it ("Status: ended (customer-ended-call)", "assistant (final)",
 * "Call ended: silence-timed-out", "Tool calls: set-call-metadata") in words; a summary that only repeats the
 * message's type says nothing more than its label, so it is left out. Null: not a summary of these shapes.
 */
export function callLogSummaryWords(type: string, summary: string): string | null {
  const status = /^Status: ([\w-]*)(?: \((.+)\))?$/.exec(summary);
  if (type === 'status-update' && status) {
    const said = STATUS_WORDS[status[1]] ?? codeWords(status[1]);
    return status[2] ? `${said}: ${endedWords(status[2])}` : said;
  }
  const transcript = /^(\w*) \((\w+)\)$/.exec(summary);
  if (type === 'transcript' && transcript) {
    const who = transcript[1] === 'user' || transcript[1] === 'customer' ? 'The person spoke' : transcript[1] ? 'The agent spoke' : 'Someone spoke';
    return transcript[2] === 'partial' ? `${who} (words so far)` : who;
  }
  const ended = /^Call ended: (.*)$/.exec(summary);
  if (ended) return ended[1] ? `The call ended: ${endedWords(ended[1])}` : 'The call ended';
  const tools = /^Tool calls: (.*)$/.exec(summary);
  if (tools) return tools[1].split(/,\s*/).filter(Boolean).map(toolWords).join('; ');
  if (summary === type) return '';
  return null;
}

/**
 * A call's agent in words, from the agents' list: "Deleted agent" only once that list is known (the call often comes
 * first, and "deleted" would then be wrong for a moment), "…" while it loads.
 */
export function callAgentName(
  voiceAgentId: string | null,
  agents: { data?: { voiceAgents: Array<{ id: string; name: string }> }; isError: boolean; isPlaceholderData?: boolean },
): string {
  if (!voiceAgentId) return '—';
  const found = agents.data?.voiceAgents.find((agent) => agent.id === voiceAgentId)?.name;
  if (found) return found;
  // Another organization's list shown while this one's loads cannot say the agent was deleted.
  if (agents.data && !agents.isPlaceholderData) return 'Deleted agent';
  return agents.isError ? 'Agent not loaded' : '…';
}

/**
 * When a transcript turn was said, in words ("0:45 into the call"), or null when unknown. Providers give either
 * the time of day (ISO, measured from the call's start) or the offset itself ("4s", "12.5s", as the simulator
 * writes it): a turn's time must never read as a dash.
 */
export function transcriptOffsetWords(at: string | undefined | null, startedAt: string | null): string | null {
  if (!at) return null;
  const offset = /^(\d+(?:\.\d+)?)s$/.exec(at.trim());
  let seconds: number;
  if (offset) seconds = Math.round(Number(offset[1]));
  else {
    const said = new Date(at).getTime();
    const start = startedAt ? new Date(startedAt).getTime() : Number.NaN;
    if (Number.isNaN(said) || Number.isNaN(start) || said < start) return null;
    seconds = Math.round((said - start) / 1000);
  }
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')} into the call`;
}
