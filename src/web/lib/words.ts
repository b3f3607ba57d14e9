import { blockReasonWords, CONTACT_BLOCK_WORDS, statusChangeSummary } from '../../contract/words';

export { blockReasonWords, candidateStatusWords, humanizeCode, statusChangeSummary } from '../../contract/words';

const STATUS_ARROW = /^Status: ([a-z_]+) -> ([a-z_]+)$/;
const CODE_IN_PARENS = /\(([a-z]+(?:_[a-z]+)+)\)/g;

/**
 * A contact-history line in a coordinator's words. New lines are written that way by the server; lines
 * stored before it ("Status: new -> prescreen_passed", "SMS not sent (no_call_consent): ...") are reworded.
 */
export function humanSummary(summary: string): string {
  const status = STATUS_ARROW.exec(summary);
  if (status) return statusChangeSummary(status[1], status[2]);
  return summary.replace(CODE_IN_PARENS, (whole, code: string) => (code in CONTACT_BLOCK_WORDS ? `(${blockReasonWords(code)})` : whole));
}
