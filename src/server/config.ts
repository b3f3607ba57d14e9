import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface AppConfig {
  nodeEnv: string;
  isProduction: boolean;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /**
   * DATABASE_DIRECT_URL: the PostgreSQL server itself when DATABASE_URL is a transaction-mode pooler (PgBouncer):
   * migrations and the job queue connect there (decision 125). Unset: they use DATABASE_URL.
   */
  databaseDirectUrl?: string;
  /** Where providers and browsers reach the app; used for links in emails and signature checks. */
  publicBaseUrl: string;
  authSecret: string;
  /** Cookies marked Secure: whenever the public address is https. */
  secureCookies: boolean;
  adminEmail?: string;
  adminPassword?: string;
  smtpUrl?: string;
  mailFrom: string;
  logLevel: string;
  /** Sign-in attempts allowed per client address in `windowSeconds` (SIGN_IN_RATE_LIMIT_MAX / _WINDOW). */
  signInRateLimit: { max: number; windowSeconds: number };
  /**
   * Failed sign-ins allowed per account (the normalized email, stored hashed) in `windowSeconds`, with a
   * growing delay between failures after `delayAfter` of them (SIGN_IN_ACCOUNT_MAX_FAILURES / _WINDOW).
   * The window expires: never a permanent lockout.
   */
  signInAccountLimit: { maxFailures: number; windowSeconds: number; delayAfter: number };
  /**
   * A sign-up without an invitation is answered no sooner than this many ms after it arrived (SIGN_UP_MIN_MS;
   * 700 by default, 0 under NODE_ENV=test), so its time does not tell a new email from a registered one (decision 121).
   */
  signUpMinMs: number;
  /**
   * Proxies in front of the app (TRUSTED_PROXIES: addresses/CIDRs, comma-separated). Only when the socket's
   * peer is one of them is X-Forwarded-For read (its right-most untrusted entry); otherwise the socket's address counts.
   */
  trustedProxies: string[];
  /**
   * Sessions: signed out after `idleMinutes` without user activity (SESSION_IDLE_MINUTES, 30) and at the
   * latest `maxHours` after sign-in (SESSION_MAX_HOURS, 12). Validated sessions are cached in-process for
   * `cacheSeconds` (SESSION_CACHE_SECONDS, 15; 0 turns the cache off). Both timeouts take decimals
   * (SESSION_IDLE_MINUTES=1.25: the browser test of the idle warning, tests/e2e/session.spec.ts).
   */
  session: { idleMinutes: number; maxHours: number; cacheSeconds: number };
  /**
   * SMS: Twilio when the account, token and a sender (number or Messaging Service) are set, else the simulator.
   * The auth token alone also switches on signature checks of the inbound webhooks.
   */
  sms: {
    twilioAccountSid?: string;
    twilioAuthToken?: string;
    twilioFromNumber?: string;
    twilioMessagingServiceSid?: string;
    twilioApiBaseUrl: string;
    /** A line HELP replies end with, e.g. "Call (212) 555-0100". */
    helpContact?: string;
  };
  /**
   * Voice calls: Vapi when VAPI_API_KEY is set, else the simulator. VAPI_SERVER_SECRET is the credential
   * Vapi sends with its server messages (X-Vapi-Secret); production refuses messages without it.
   */
  voice: {
    vapiApiKey?: string;
    vapiServerSecret?: string;
    /** https://api.vapi.ai by default; tests point it at a local fake. */
    vapiApiBaseUrl: string;
    /** The Vapi phone number outbound calls are placed from. */
    vapiPhoneNumberId?: string;
    /** Calls one organization may have open at once during a bulk prescreen (VOICE_MAX_CONCURRENT_CALLS, default 3). */
    maxConcurrentCalls: number;
  };
  /**
   * An OpenAI-compatible chat-completions API that proposes rules for criteria the deterministic reader left
   * unread (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). Off (null) unless LLM_BASE_URL and LLM_MODEL are set.
   */
  llm: {
    baseUrl: string;
    apiKey?: string;
    model: string;
    timeoutMs: number;
    /**
     * The trial matcher may send a candidate's clinical notes to the model to judge criteria the rules leave
     * unknown (LLM_JUDGE_NOTES=true, decision 097): patient data leaves the product, so it needs its own yes.
     */
    judgeNotes: boolean;
  } | null;
  /**
   * What the costs dashboard charges per unit when a provider does not report a cost (decision 031):
   * COST_SMS_SEGMENT_USD (default 0.0083, Twilio's US rate), COST_CALL_MINUTE_USD (default 0.10) and
   * COST_LLM_1K_TOKENS_USD (default 0.002) for the optional language model's tokens.
   */
  rates: { smsSegmentUsd: number; callMinuteUsd: number; llmThousandTokensUsd: number };
  /** How many synthetic candidates the demo organization's reset seeds (DEMO_CANDIDATES, default 3,000; decision 068). */
  demo: { candidates: number };
}

/**
 * better-auth needs a high-entropy secret. When none is configured, one is generated once into the data
 * directory so that sessions survive restarts.
 */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** A positive number from the environment, or the default when unset or not a positive number. */
function positive(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const port = Number(env.PORT ?? 3000);
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    nodeEnv,
    isProduction: nodeEnv === 'production',
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseDirectUrl: env.DATABASE_DIRECT_URL || undefined,
    publicBaseUrl,
    secureCookies: publicBaseUrl.startsWith('https://'),
    authSecret: env.BETTER_AUTH_SECRET || loadOrCreateSecret(dataDir),
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Cohortly <no-reply@cohortly.local>',
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    signInRateLimit: {
      max: Number(env.SIGN_IN_RATE_LIMIT_MAX ?? 10),
      windowSeconds: Number(env.SIGN_IN_RATE_LIMIT_WINDOW ?? 60),
    },
    signUpMinMs:
      env.SIGN_UP_MIN_MS !== undefined && Number.isFinite(Number(env.SIGN_UP_MIN_MS)) ? Math.max(0, Number(env.SIGN_UP_MIN_MS)) : nodeEnv === 'test' ? 0 : 700,
    signInAccountLimit: {
      maxFailures: positive(env.SIGN_IN_ACCOUNT_MAX_FAILURES, 10),
      windowSeconds: positive(env.SIGN_IN_ACCOUNT_WINDOW, 15 * 60),
      delayAfter: 3,
    },
    trustedProxies: (env.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    session: {
      idleMinutes: positive(env.SESSION_IDLE_MINUTES, 30),
      maxHours: positive(env.SESSION_MAX_HOURS, 12),
      cacheSeconds: Math.max(0, Number(env.SESSION_CACHE_SECONDS ?? 15) || 0),
    },
    sms: {
      twilioAccountSid: env.TWILIO_ACCOUNT_SID || undefined,
      twilioAuthToken: env.TWILIO_AUTH_TOKEN || undefined,
      twilioFromNumber: env.TWILIO_FROM_NUMBER || undefined,
      twilioMessagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID || undefined,
      twilioApiBaseUrl: (env.TWILIO_API_BASE_URL || 'https://api.twilio.com').replace(/\/$/, ''),
      helpContact: env.SMS_HELP_CONTACT || undefined,
    },
    voice: {
      vapiApiKey: env.VAPI_API_KEY || undefined,
      vapiServerSecret: env.VAPI_SERVER_SECRET || undefined,
      vapiApiBaseUrl: (env.VAPI_API_BASE_URL || 'https://api.vapi.ai').replace(/\/$/, ''),
      vapiPhoneNumberId: env.VAPI_PHONE_NUMBER_ID || undefined,
      maxConcurrentCalls: Math.max(1, Math.min(50, Number(env.VOICE_MAX_CONCURRENT_CALLS) || 3)),
    },
    llm:
      env.LLM_BASE_URL && env.LLM_MODEL
        ? {
            baseUrl: env.LLM_BASE_URL.replace(/\/$/, ''),
            apiKey: env.LLM_API_KEY || undefined,
            model: env.LLM_MODEL,
            timeoutMs: Math.max(1000, Number(env.LLM_TIMEOUT_MS) || 60_000),
            judgeNotes: env.LLM_JUDGE_NOTES === 'true',
          }
        : null,
    rates: {
      smsSegmentUsd: rate(env.COST_SMS_SEGMENT_USD, 0.0083),
      callMinuteUsd: rate(env.COST_CALL_MINUTE_USD, 0.1),
      llmThousandTokensUsd: rate(env.COST_LLM_1K_TOKENS_USD, 0.002),
    },
    demo: { candidates: Math.min(100_000, Math.max(50, Math.floor(Number(env.DEMO_CANDIDATES) || 3000))) },
  };
}

/** A configured unit price: a finite number >= 0, else the default. */
function rate(value: string | undefined, fallback: number): number {
  const number = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(number) && number >= 0 ? number : fallback;
}
