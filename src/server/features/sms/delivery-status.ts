import type { Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import type { SmsDeliveryStatus, SmsProvider } from '../../integrations/sms/port';
import { recordActivity } from '../../activity';
import { findSmsByProviderId, updateSms, type SmsRow } from './queries';
import type { SmsDeps } from './message';

const STATUS_RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, undelivered: 2, failed: 2 };

/**
 * Moves an outbound message to `status` (Twilio's status callback, and the simulator's delivery). Callbacks
 * can arrive out of order or twice: a message never moves backwards, and final states stay final. A delivery
 * is activity (`recordDelivery` false when the caller records the send and its delivery together).
 */
export async function applyStatusUpdate(
  tx: Transaction,
  provider: SmsProvider,
  providerMessageId: string,
  status: SmsDeliveryStatus,
  errorCode?: string,
  recordDelivery = true,
): Promise<SmsRow | undefined> {
  const row = await findSmsByProviderId(tx, provider, providerMessageId);
  if (row?.direction !== 'outbound' || !(row.status in STATUS_RANK)) return row;
  if (STATUS_RANK[status] <= STATUS_RANK[row.status]) return row;
  const updated = await updateSms(tx, row.id, { status, ...(errorCode ? { error: errorCode } : {}) });
  if (recordDelivery && status === 'delivered') {
    await recordActivity(tx, [
      { organizationId: row.organizationId, candidateId: row.candidateId, kind: 'sms_delivered', source: 'sms', label: row.purpose, referenceId: row.id },
    ]);
  }
  return updated;
}

export async function receiveStatusCallback(deps: SmsDeps, input: { messageSid: string; status: SmsDeliveryStatus; errorCode?: string }): Promise<boolean> {
  // The system path: the provider's message id is all we know, not its organization.
  return systemDb(deps.db).transaction(async (tx) => Boolean(await applyStatusUpdate(tx, deps.sms.provider, input.messageSid, input.status, input.errorCode)));
}
