import { createAuth } from './auth/auth';
import type { AppConfig } from './config';
import type { DatabaseHandle } from './db/client';
import type { AppDeps } from './http/context';
import { createOutboxMail, createSmtpMail } from './integrations/mail/mail';
import { createSimulatorSms, SIMULATOR_DEFAULT_FROM } from './integrations/sms/simulator';
import type { SmsPort } from './integrations/sms/port';
import { createTwilioSms } from './integrations/sms/twilio';
import { createLogger } from './logger';

/** Twilio when the account, token and a sender are configured; otherwise the simulator. */
export function chooseSms(config: AppConfig): SmsPort {
  const { twilioAccountSid, twilioAuthToken, twilioFromNumber, twilioMessagingServiceSid, twilioApiBaseUrl } = config.sms;
  if (twilioAccountSid && twilioAuthToken && (twilioFromNumber || twilioMessagingServiceSid)) {
    return createTwilioSms({ accountSid: twilioAccountSid, authToken: twilioAuthToken, fromNumber: twilioFromNumber, messagingServiceSid: twilioMessagingServiceSid, apiBaseUrl: twilioApiBaseUrl });
  }
  return createSimulatorSms(twilioFromNumber ?? SIMULATOR_DEFAULT_FROM);
}

/** Wires the app's parts from config and an open database: the one place adapters are chosen. */
export function createDeps(config: AppConfig, database: DatabaseHandle): AppDeps {
  const logger = createLogger(config.logLevel);
  const mail = config.smtpUrl ? createSmtpMail(config.smtpUrl, config.mailFrom, logger) : createOutboxMail(database.db, logger);
  const auth = createAuth({ config, db: database.db, mail, logger });
  return { config, db: database.db, auth, mail, sms: chooseSms(config), logger };
}
