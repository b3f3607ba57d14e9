import { createHmac, timingSafeEqual } from 'node:crypto';
import { mapProviderStatus, SmsSendError, type SmsPort } from './port';

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  /** E.164 sender; or a Messaging Service (preferred when both are set). */
  fromNumber?: string;
  messagingServiceSid?: string;
  /** https://api.twilio.com by default; tests point it at a local fake. */
  apiBaseUrl: string;
  /** Per-request timeout; a send never holds a caller longer than this. */
  timeoutMs?: number;
}

/** The Twilio adapter: POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded, Basic auth. */
export function createTwilioSms(config: TwilioConfig): SmsPort {
  const url = `${config.apiBaseUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  return {
    provider: 'twilio',
    fromNumber: config.fromNumber ?? '',
    async send(request) {
      const form = new URLSearchParams();
      form.set('To', request.to);
      // The organization's own number when it has one (replies are routed by it, decision 118); with a Messaging
      // Service, Twilio requires that number to be in the service's sender pool.
      const ownNumber = request.from && request.from !== config.fromNumber ? request.from : undefined;
      if (config.messagingServiceSid) form.set('MessagingServiceSid', config.messagingServiceSid);
      if (ownNumber || !config.messagingServiceSid) form.set('From', ownNumber ?? config.fromNumber ?? request.from);
      form.set('Body', request.body);
      if (request.statusCallbackUrl) form.set('StatusCallback', request.statusCallbackUrl);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form,
          signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
        });
      } catch (error) {
        throw new SmsSendError(`Twilio unreachable: ${(error as Error).name}`, 'network');
      }
      const answer = (await response.json().catch(() => null)) as { sid?: string; status?: string; code?: number; message?: string } | null;
      if (!response.ok || !answer?.sid) {
        // Twilio's error body: { code, message, more_info, status }. The message never echoes the body we sent.
        throw new SmsSendError(
          `Twilio refused the message (HTTP ${response.status}${answer?.code ? `, error ${answer.code}` : ''})`,
          String(answer?.code ?? response.status),
        );
      }
      return { providerMessageId: answer.sid, status: mapProviderStatus(answer.status) ?? 'queued' };
    },
    async findOwnNumber(number) {
      // GET /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json?PhoneNumber=+1...: the account's numbers matching it.
      const lookup = `${config.apiBaseUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(number)}`;
      let response: Response;
      try {
        response = await fetch(lookup, { headers: { authorization, accept: 'application/json' }, signal: AbortSignal.timeout(config.timeoutMs ?? 10_000) });
      } catch (error) {
        throw new SmsSendError(`Twilio unreachable: ${(error as Error).name}`, 'network');
      }
      const answer = (await response.json().catch(() => null)) as {
        incoming_phone_numbers?: Array<{ sid?: string; phone_number?: string }>;
        code?: number;
      } | null;
      if (!response.ok || !Array.isArray(answer?.incoming_phone_numbers)) {
        throw new SmsSendError(
          `Twilio refused the number lookup (HTTP ${response.status}${answer?.code ? `, error ${answer.code}` : ''})`,
          String(answer?.code ?? response.status),
        );
      }
      const found = answer.incoming_phone_numbers.find((item) => item.phone_number === number && typeof item.sid === 'string');
      return found ? { providerId: found.sid! } : null;
    },
  };
}

/**
 * Twilio's request signature (X-Twilio-Signature): base64(HMAC-SHA1(authToken, url + each POST param name
 * and value, sorted by name)). Implemented here instead of installing the `twilio` package (a large
 * dependency tree for one function); tests check it against the documented example.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string | string[]>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => {
      const value = params[key];
      return (
        text +
        (Array.isArray(value)
          ? [...value]
              .sort()
              .map((item) => key + item)
              .join('')
          : key + value)
      );
    }, url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** Constant-time check of a received signature. */
export function validateTwilioSignature(authToken: string, signature: string | undefined, url: string, params: Record<string, string | string[]>): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const received = Buffer.from(signature);
  return expected.length === received.length && timingSafeEqual(expected, received);
}
