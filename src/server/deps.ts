import { createCriteriaReader } from './integrations/llm/criteria-reader';
import { createCriterionJudge } from './integrations/llm/criterion-judge';
import { createAuth } from './auth/auth';
import { trustedProxyList } from './auth/client-address';
import { SessionStore } from './auth/sessions';
import { createSignInThrottle } from './auth/sign-in-throttle';
import type { AppConfig } from './config';
import type { Database, DatabaseHandle } from './db/client';
import type { AppDeps } from './http/context';
import { createOutboxMail, createSmtpMail } from './integrations/mail/mail';
import { createSimulatorSms, SIMULATOR_DEFAULT_FROM } from './integrations/sms/simulator';
import type { SmsPort } from './integrations/sms/port';
import { createTwilioSms } from './integrations/sms/twilio';
import { createSimulatorVoice } from './integrations/voice/simulator';
import type { VoicePort } from './integrations/voice/port';
import { createVapiVoice } from './integrations/voice/vapi';
import { createJobs } from './jobs/jobs';
import { createLogger, type Logger } from './logger';

/** Twilio when the account, token and a sender are configured; otherwise the simulator. */
export function chooseSms(config: AppConfig): SmsPort {
  const { twilioAccountSid, twilioAuthToken, twilioFromNumber, twilioMessagingServiceSid, twilioApiBaseUrl } = config.sms;
  if (twilioAccountSid && twilioAuthToken && (twilioFromNumber || twilioMessagingServiceSid)) {
    return createTwilioSms({
      accountSid: twilioAccountSid,
      authToken: twilioAuthToken,
      fromNumber: twilioFromNumber,
      messagingServiceSid: twilioMessagingServiceSid,
      apiBaseUrl: twilioApiBaseUrl,
    });
  }
  return createSimulatorSms(twilioFromNumber ?? SIMULATOR_DEFAULT_FROM);
}

/** Vapi when an API key is configured; otherwise the simulator (which delivers to our own webhook once attached in createApp). */
export function chooseVoice(config: AppConfig, db: Database, logger: Logger): VoicePort {
  const { vapiApiKey, vapiApiBaseUrl, vapiPhoneNumberId, vapiServerSecret } = config.voice;
  if (vapiApiKey) return createVapiVoice({ apiKey: vapiApiKey, apiBaseUrl: vapiApiBaseUrl, phoneNumberId: vapiPhoneNumberId, serverSecret: vapiServerSecret });
  return createSimulatorVoice(db, logger);
}

/** Wires the app's parts from config and an open database: the one place adapters are chosen. */
export function createDeps(config: AppConfig, database: DatabaseHandle): AppDeps {
  // A malformed TRUSTED_PROXIES entry stops the start rather than failing requests later.
  trustedProxyList(config.trustedProxies);
  const logger = createLogger(config.logLevel);
  const mail = config.smtpUrl ? createSmtpMail(config.smtpUrl, config.mailFrom, logger) : createOutboxMail(database.db, logger);
  const auth = createAuth({ config, db: database.db, mail, logger });
  const sessions = new SessionStore(auth, database.db, config);
  const signInThrottle = createSignInThrottle(database.db, config);
  return {
    config,
    db: database.db,
    auth,
    sessions,
    signInThrottle,
    mail,
    sms: chooseSms(config),
    voice: chooseVoice(config, database.db, logger),
    criteriaReader: config.llm ? createCriteriaReader(config.llm) : null,
    criterionJudge: config.llm?.judgeNotes ? createCriterionJudge(config.llm) : null,
    jobs: createJobs(database, logger, config.nodeEnv === 'test' ? { pollingIntervalSeconds: 0.5, scheduledPollingIntervalSeconds: 0.5 } : {}),
    logger,
  };
}
