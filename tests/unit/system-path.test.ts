import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The system path (src/server/db/system.ts, decision 029): the owner handle, row-level security off, is
// obtained only as `systemDb(...)`, and only in the files below. A new file that needs to cross
// organizations is a decision: add it here with the reason, or use runScoped / runAsOrganization instead.

const ROOT = join(__dirname, '..', '..');

/** The files allowed to obtain the owner handle, and why. */
const SYSTEM_DB_USERS: Record<string, string> = {
  'src/server/db/maintenance.ts': 'ANALYZE of the whole database',
  'src/server/features/calls/callback-calls.ts': "a job's callback before its organization is known; the lost-job sweep over every organization",
  'src/server/features/calls/inbound-twilio.ts': 'which organization owns the called number',
  'src/server/features/calls/reconcile.ts': 'which organizations have open calls (ids only)',
  'src/server/features/calls/vapi-routes.ts': "a direct tool request's call, number owner and candidate before the organization is known",
  'src/server/features/calls/webhook.ts': "a webhook's call by provider id; the owner of the called number",
  'src/server/features/candidates/import-runner.ts': 'ANALYZE after an import',
  'src/server/features/chat/open-conversation.ts': "public chat: a conversation by id before its organization is known; resume's rate limit",
  'src/server/features/chat/rate-conversation.ts': "public chat: the rating's rate limit",
  'src/server/features/chat/start-conversation.ts': 'public chat: the rate limit on starts, the organization by public id',
  'src/server/features/chat/take-turn.ts': 'public chat: the message and verification rate limits',
  'src/server/features/demo/seed.ts':
    'the demo organization by its slug, and creating it (the registry has no row security); its data is written under runAsOrganization',
  'src/server/features/matching/matcher.ts': 'ANALYZE after a match run',
  'src/server/features/onboarding/service.ts': 'creating an organization (the registry has no row security) with its onboarding',
  'src/server/features/organizations/service.ts': 'writes to the organization registry (no row security)',
  'src/server/features/prescreen/bookings.ts': "a booking's confirmation before its organization is known",
  'src/server/features/processing-runs/background.ts': 'claiming, renewing and releasing a run by id across processes',
  'src/server/features/processing-runs/runner.ts':
    "resuming every organization's unfinished runs at start-up and in the sweep; failing a pending run whose creator is gone",
  'src/server/features/sponsor-demo/service.ts': 'the demo organization by its slug, for internal admins whatever their active organization',
  'src/server/features/sequences/engine.ts': "a batch of step jobs' enrollments (several organizations); the job sweep",
  'src/server/features/sms/delivery-status.ts': 'delivery callbacks by provider message id',
  'src/server/features/sms/inbound.ts':
    "inbound SMS: the owner of the number texted, or who texted the person from it (ids only); Cohortly's organization by slug",
  'src/server/jobs/jobs.ts': 'claiming a period of a periodic sweep (background_sweep: no organization)',
  'src/server/jobs/register.ts': "this process's heartbeat (app_instance: no organization)",
};

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

const code = (file: string) =>
  readFileSync(join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

describe('the system path', () => {
  const files = sourceFiles('src/server').filter((file) => file !== 'src/server/db/system.ts');

  it('obtains the owner handle (systemDb) only in the listed files', () => {
    const users = files.filter((file) => /\bsystemDb\s*\(/.test(code(file)));
    expect(users).toEqual(Object.keys(SYSTEM_DB_USERS).sort());
  });

  it('never calls the raw database handle directly inside a feature (runScoped, runAsOrganization or systemDb first)', () => {
    const raw = sourceFiles('src/server/features').flatMap((file) =>
      code(file)
        .split('\n')
        .filter((line) => /\b(deps\.db|db|this\.db)\s*\.\s*(select|selectDistinct|insert|update|delete|execute|transaction|query)\b/.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(raw).toEqual([]);
  });

  it('builds a one-organization scope for work with no user only in db/scoped.ts (runAsOrganization, asOrganization)', () => {
    const handBuilt = files.filter((file) => file !== 'src/server/db/scoped.ts' && /reachableOrganizationIds:\s*\[\s*[\w.]+\s*\]/.test(code(file)));
    expect(handBuilt).toEqual([]);
  });

  it('keeps systemDb out of the web and the contract', () => {
    const leaks = [...sourceFiles('src/web'), ...sourceFiles('src/contract')].filter((file) => /db\/system|systemDb/.test(code(file)));
    expect(leaks).toEqual([]);
  });
});
