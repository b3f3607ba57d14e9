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
