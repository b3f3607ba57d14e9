import type { AiRecommendation } from '../../contract/prescreen';
import { blockReasonWords, callEndedSummary, CONTACT_BLOCK_WORDS, statusChangeSummary } from '../../contract/words';
import { formatDateTime } from './utils';

export { blockReasonWords, candidateStatusWords, humanizeCode, statusChangeSummary } from '../../contract/words';

const STATUS_ARROW = /^Status: ([a-z_]+) -> ([a-z_]+)$/;
const CODE_IN_PARENS = /\(([a-z]+(?:_[a-z]+)+)\)/g;
const DETAILS_UPDATED = /^Details updated: (.+)$/;
// Demo data written before the contact history's call lines were in words.
const CALL_ENDED_CODE = /^Call ended: ([a-z_]+)$/;
/** The AI recommendations in words: the one table the badges, filters, dashboard and contact history read. */
export const RECOMMENDATION_WORDS: Record<AiRecommendation, string> = { PASS: 'Pass', FAIL: 'Fail', POTENTIAL: 'Potential', INCONCLUSIVE: 'Inconclusive' };
const recommendationWord = (code: string): string | undefined => (RECOMMENDATION_WORDS as Record<string, string>)[code];
const RECOMMENDATION = /\b(PASS|FAIL|POTENTIAL|INCONCLUSIVE)\b/g;
const OVERRIDE_ARROW = /: (\w+) -> (\w+)/;
const ISO_TIMESTAMP = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const SNAKE_CODE = /\b[a-z]+(?:_[a-z0-9]+)+\b/g;
/** Candidate fields by their names in the record (contract/candidates.ts), as the profile labels them. */
const FIELD_WORDS: Record<string, string> = {
  firstName: 'first name',
  lastName: 'last name',
  dateOfBirth: 'date of birth',
  timeZone: 'time zone',
  preferredLanguage: 'preferred language',
  customFields: 'other details',
  zipCode: 'ZIP code',
  postalCode: 'postal code',
};
const fieldWords = (field: string) => FIELD_WORDS[field] ?? field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/**
 * A contact-history line in a coordinator's words. Lines stored in a system's words ("Status: new ->
 * prescreen_passed", "SMS not sent (no_call_consent): ...", "Details updated: timeZone", "SMS sent:
 * visit_confirmation", "Prescreen (call): PASS", an ISO timestamp) are reworded when shown, old rows included.
 */
export function humanSummary(summary: string): string {
  const status = STATUS_ARROW.exec(summary);
  if (status) return statusChangeSummary(status[1], status[2]);
  const ended = CALL_ENDED_CODE.exec(summary);
  if (ended) return callEndedSummary(ended[1]);
  const details = DETAILS_UPDATED.exec(summary);
  if (details) return `Details updated: ${details[1].split(/,\s*/).map(fieldWords).join(', ')}`;
  return summary
    .replace(CODE_IN_PARENS, (whole, code: string) => (code in CONTACT_BLOCK_WORDS ? `(${blockReasonWords(code)})` : whole))
    .replace(OVERRIDE_ARROW, (whole, from: string, to: string) =>
      recommendationWord(from) && recommendationWord(to) ? ` from ${recommendationWord(from)} to ${recommendationWord(to)}` : whole,
    )
    .replace(RECOMMENDATION, (code: string) => recommendationWord(code) ?? code)
    .replace(ISO_TIMESTAMP, (stamp) => formatDateTime(stamp))
    .replace(SNAKE_CODE, (code) => code.replace(/_/g, ' '));
}
