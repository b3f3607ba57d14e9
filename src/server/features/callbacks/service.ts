import type { CallbackReason } from '../../../contract/callbacks';
import type { VoiceAgentType } from '../../../contract/voice';
import type { callback } from '../../db/schema';
import type { Transaction } from '../../db/scoped';
import type { AppDeps } from '../../http/context';
import type { CandidateRow } from '../candidates/queries';
import type { CallActor } from '../calls/service';
import type { CallRow } from '../calls/queries';

export type CallbackRow = typeof callback.$inferSelect;

export interface OpenCallbackInput {
  candidate: CandidateRow;
  type: VoiceAgentType;
  reason: CallbackReason;
  /** The time asked for; moved into calling hours in the candidate's time zone. */
  requestedFor: Date;
  actor: CallActor;
  note?: string | null;
}

/**
 * In `tx`: creates the candidate's callback, or moves their open (pending) one. Its job is queued after the
 * commit by queueCallbackJobs. (Being written.)
 */
export async function openCallback(_tx: Transaction, _input: OpenCallbackInput): Promise<{ row: CallbackRow; rescheduled: boolean; moved: boolean }> {
  throw new Error('not implemented yet');
}

/** After a commit: queues a pg-boss job for every pending callback of the organization that has none. (Being written.) */
export async function queueCallbackJobs(_deps: Pick<AppDeps, 'db' | 'jobs' | 'logger'>, _organizationId: string): Promise<void> {}

/** In finishCall: a callback's call settles it (done, retried, failed); a missed call may earn one. (Being written.) */
export async function settleCallbackAfterCall(_tx: Transaction, _call: CallRow): Promise<void> {}
