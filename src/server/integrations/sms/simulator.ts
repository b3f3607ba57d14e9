import { randomBytes } from 'node:crypto';
import type { SmsPort } from './port';

/** Twilio's documented test sender; used when no number is configured. */
export const SIMULATOR_DEFAULT_FROM = '+15005550006';

/**
 * The default adapter: sends nothing anywhere. It answers like a provider (an id `SIM…`, status `sent`);
 * the SMS service stores every message itself in sms_message (the outbox of GET /api/sms/simulator/outbox)
 * and then marks it delivered through the same status-update function Twilio's status callback uses
 * (see docs/decisions/009-sms-and-consent.md).
 */
export function createSimulatorSms(fromNumber: string = SIMULATOR_DEFAULT_FROM): SmsPort {
  return {
    provider: 'simulator',
    fromNumber,
    async send() {
      return { providerMessageId: `SIM${randomBytes(16).toString('hex')}`, status: 'sent' };
    },
  };
}
