/** The SMS port: every SMS leaves through it (features call `sendSms` in features/sms/service.ts, never this directly). */

export type SmsProvider = 'simulator' | 'twilio';

/** Our stored delivery states (sms_message.status), in the order a message normally moves through them. */
export type SmsDeliveryStatus = 'queued' | 'sent' | 'delivered' | 'failed' | 'undelivered';

export interface SmsSendRequest {
  /** E.164. */
  to: string;
  /** E.164 sender: the organization's own number, or the port's `fromNumber` (with a Messaging Service, Twilio then picks from its pool). */
  from: string;
  body: string;
  /** Where the provider posts delivery updates (Twilio: StatusCallback). */
  statusCallbackUrl?: string;
}

export interface SmsSendResult {
  providerMessageId: string;
  status: SmsDeliveryStatus;
}

export interface SmsPort {
  readonly provider: SmsProvider;
  /** The number messages come from (shown in threads; the simulator's inbound replies are addressed to it). */
  readonly fromNumber: string;
  send(request: SmsSendRequest): Promise<SmsSendResult>;
  /**
   * Whether the number (E.164) is one of the configured account's incoming numbers, with the provider's id
   * for it (Twilio: IncomingPhoneNumbers). Absent on the simulator. Failures throw SmsSendError.
   */
  findOwnNumber?(number: string): Promise<{ providerId: string } | null>;
}

/** A provider refused or could not take the message; `code` is the provider's error code, safe to store. */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Twilio's message statuses mapped onto ours. Unknown values answer undefined (ignored).
 * accepted/scheduled/sending are steps before "sent"; read (WhatsApp/RCS) counts as delivered.
 */
export function mapProviderStatus(status: string | undefined): SmsDeliveryStatus | undefined {
  switch ((status ?? '').toLowerCase()) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
    case 'sending':
      return 'queued';
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return undefined;
  }
}
