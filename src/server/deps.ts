import { createAuth } from './auth/auth';
import type { AppConfig } from './config';
import type { DatabaseHandle } from './db/client';
import type { AppDeps } from './http/context';
import { createOutboxMail, createSmtpMail } from './integrations/mail/mail';
import { createLogger } from './logger';

/** Wires the app's parts from config and an open database: the one place adapters are chosen. */
export function createDeps(config: AppConfig, database: DatabaseHandle): AppDeps {
  const logger = createLogger(config.logLevel);
  const mail = config.smtpUrl ? createSmtpMail(config.smtpUrl, config.mailFrom, logger) : createOutboxMail(database.db, logger);
  const auth = createAuth({ config, db: database.db, mail, logger });
  return { config, db: database.db, auth, mail, logger };
}
