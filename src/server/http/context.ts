import type { CriteriaReader } from '../integrations/llm/criteria-reader';
import type { CriterionJudge } from '../integrations/llm/criterion-judge';
import type { AppConfig } from '../config';
import type { Database } from '../db/client';
import type { Auth } from '../auth/auth';
import type { RequestScope } from '../auth/scope';
import type { ResolvedSession, SessionStore } from '../auth/sessions';
import type { SignInThrottle } from '../auth/sign-in-throttle';
import type { Logger } from '../logger';
import type { MailPort } from '../integrations/mail/mail';
import type { SmsPort } from '../integrations/sms/port';
import type { VoicePort } from '../integrations/voice/port';
import type { Jobs } from '../jobs/jobs';

/** What the app is built from; tests build the same app with their own database. */
export interface AppDeps {
  config: AppConfig;
  db: Database;
  auth: Auth;
  /** Sessions: idle and absolute limits, and the in-process cache of validated sessions (auth/sessions.ts). */
  sessions: SessionStore;
  /** The per-account sign-in limit (auth/sign-in-throttle.ts). */
  signInThrottle: SignInThrottle;
  mail: MailPort;
  /** SMS: Twilio when configured, else the simulator (see deps.ts). */
  sms: SmsPort;
  /** Voice calls: Vapi when configured, else the simulator (see deps.ts). */
  voice: VoicePort;
  /** Proposes rules for unread criteria through an OpenAI-compatible API; null unless LLM_BASE_URL/LLM_MODEL are set. */
  criteriaReader: CriteriaReader | null;
  /** Judges criteria the rules leave unknown against a candidate's notes (decision 097); null unless LLM_JUDGE_NOTES=true with the model configured. */
  criterionJudge: CriterionJudge | null;
  /** Background jobs (pg-boss); started by jobs/register.ts startBackgroundWork. */
  jobs: Jobs;
  logger: Logger;
}

export type AppEnv = {
  Variables: {
    deps: AppDeps;
    /** Resolved once per request by the scope middleware (auth/scope.ts). */
    scope: RequestScope;
    /** The request's session, set with the scope. */
    session: ResolvedSession;
  };
};
