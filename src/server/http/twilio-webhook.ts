import type { Context } from 'hono';
import { validateTwilioSignature } from '../integrations/sms/twilio';
import type { AppEnv } from './context';

/** The form fields Twilio posts (application/x-www-form-urlencoded). */
export async function twilioForm(c: Context<AppEnv>): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(await c.req.text())) params[key] = value;
  return params;
}

/**
 * Twilio signs with the exact URL it was given: PUBLIC_BASE_URL + the path (+ query). With no auth token
 * configured (the simulators) the check is skipped outside production only; production fails closed.
 * Used by every Twilio webhook: inbound SMS, delivery status, inbound calls.
 */
export function twilioSignatureAccepted(c: Context<AppEnv>, params: Record<string, string>): boolean {
  const { config } = c.get('deps');
  const token = config.sms.twilioAuthToken;
  if (!token) return !config.isProduction;
  const url = new URL(c.req.url);
  return validateTwilioSignature(token, c.req.header('x-twilio-signature'), `${config.publicBaseUrl}${url.pathname}${url.search}`, params);
}
