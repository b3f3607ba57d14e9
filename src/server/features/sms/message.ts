import type { SmsMessage } from '../../../contract/sms';
import type { AppDeps } from '../../http/context';
import type { SmsRow } from './queries';

/** What the SMS feature needs of the app: the database, the SMS port, the public address (status callbacks). */
export type SmsDeps = Pick<AppDeps, 'db' | 'sms' | 'config' | 'logger'>;

export const STATUS_CALLBACK_PATH = '/api/inbound/sms/status';
export const INBOUND_PATH = '/api/inbound/sms';

/** An SMS as the API shows it. */
export function toSmsMessage(row: SmsRow): SmsMessage {
  return {
    id: row.id,
    organizationId: row.organizationId,
    candidateId: row.candidateId,
    direction: row.direction,
    toPhone: row.toPhone,
    fromPhone: row.fromPhone,
    body: row.body,
    status: row.status,
    purpose: row.purpose,
    provider: row.provider,
    providerMessageId: row.providerMessageId,
    templateKey: row.templateKey,
    error: row.error,
    sentByUserId: row.sentByUserId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
