import type { CHAT_NEXT_STEPS, ConversationStatus } from '../../../contract/chat';
import type { CONVERSATION_SORTS } from '../../../contract/search';

export const NEXT_STEP_LABELS: Record<(typeof CHAT_NEXT_STEPS)[number], string> = {
  book_call: 'Book a call',
  callback: 'Callback',
  visit: 'Screening visit',
  none: 'None',
};

export const LANGUAGE_LABELS: Record<string, string> = { en: 'English', es: 'Español' };

export const STATUS_LABELS: Record<ConversationStatus, string> = { ONGOING: 'Ongoing', COMPLETED: 'Completed' };

export const SORT_LABELS: Record<(typeof CONVERSATION_SORTS)[number], string> = {
  'createdAt:desc': 'Newest first',
  'createdAt:asc': 'Oldest first',
  'updatedAt:desc': 'Recently updated',
  'updatedAt:asc': 'Least recently updated',
  status: 'Status',
};

export const languagesText = (languages: string[]) => languages.map((language) => LANGUAGE_LABELS[language] ?? language).join(', ') || '—';
