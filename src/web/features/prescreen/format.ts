import type { AiRecommendation, PrescreenAnswer, PrescreenSourceType } from '../../../contract/prescreen';
import { answerTextInWords } from '../../lib/date-words';

export { RECOMMENDATION_WORDS as RECOMMENDATION_LABELS } from '../../lib/words';
export const RECOMMENDATION_CLASSES: Record<AiRecommendation, string> = {
  PASS: 'bg-green-100 text-green-900 border-green-300',
  FAIL: 'bg-red-100 text-red-900 border-red-300',
  POTENTIAL: 'bg-amber-100 text-amber-950 border-amber-300',
  INCONCLUSIVE: 'bg-slate-100 text-slate-800 border-slate-300',
};
export const SOURCE_TYPE_LABELS: Record<PrescreenSourceType, string> = { call: 'Call', chat: 'Chat', manual: 'Manual' };
export const REVIEW_STATUS_LABELS: Record<string, string> = { pending: 'Pending review', approved: 'Approved', rejected: 'Rejected' };
export const REVIEW_STATUS_TONES: Record<string, 'slate' | 'blue' | 'green' | 'amber'> = { pending: 'blue', approved: 'green', rejected: 'amber' };

export const EVALUATION_LABELS: Record<string, string> = { met: 'Met', not_met: 'Not met', unknown: 'Unknown', review: 'Needs review' };

/** How an evaluation reads for eligibility: good (green), bad (red), open (amber/grey). */
export function evaluationTone(kind: 'inclusion' | 'exclusion', status: string, disqualifying: boolean): 'good' | 'bad' | 'open' | 'unknown' {
  if (disqualifying) return 'bad';
  if (status === 'unknown') return 'unknown';
  if (status === 'review') return 'open';
  const satisfied = kind === 'inclusion' ? status === 'met' : status === 'not_met';
  return satisfied ? 'good' : 'bad';
}

/** An answer as staff read it anywhere answers are shown (review, call, chat, demo): a date answer in words. */
export function answerInWords(answer: Pick<PrescreenAnswer, 'value' | 'type'> | { value: unknown; type?: string }): string {
  const { value } = answer;
  if (value === null || value === undefined || value === '') return 'No answer';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length ? value.map((item) => answerTextInWords(String(item))).join(', ') : 'None of these';
  return answerTextInWords(String(value));
}
