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

/**
 * The writes made through the owner handle, each with its reason: a write there skips row security, so only
 * tables that belong to no organization, work that precedes knowing the organization, or cross-organization
 * housekeeping may do it. Everything else (STOP, consent, threads, calls) looks the organization up here and
 * then writes under runAsOrganization. Key: `file: the function or method the handle is given to`.
 */
const SYSTEM_WRITES: Record<string, string> = {
  'src/server/db/maintenance.ts: execute': 'ANALYZE of the whole database (no organization)',
  'src/server/features/calls/callback-calls.ts: releaseLostJobs': "the lost-job sweep forgets every organization's lost job ids in one statement",
  'src/server/features/candidates/import-runner.ts: execute': 'ANALYZE after an import (statistics, no rows)',
  'src/server/features/chat/open-conversation.ts: enforce': 'the public chat rate limit (request_throttle: no organization)',
  'src/server/features/chat/rate-conversation.ts: enforce': 'the public chat rate limit (request_throttle: no organization)',
  'src/server/features/chat/start-conversation.ts: enforce': 'the public chat rate limit (request_throttle: no organization)',
  'src/server/features/chat/take-turn.ts: enforce': 'the public chat rate limits (request_throttle: no organization)',
  'src/server/features/demo/seed.ts: insertOrganization': 'creating the demo organization (the registry has no row security)',
  'src/server/features/matching/matcher.ts: transaction': 'ANALYZE after a match run (statistics, no rows)',
  'src/server/features/onboarding/service.ts: transaction': 'creating an organization with its first member (the registry has no row security)',
  'src/server/features/organizations/service.ts: transaction': 'writes to the organization registry (no row security)',
  'src/server/features/processing-runs/background.ts: claimRun': 'claiming a run by id across processes (the lease)',
  'src/server/features/processing-runs/background.ts: releaseRun': 'releasing a run by id across processes (the lease)',
  'src/server/features/processing-runs/background.ts: renewRun': "renewing a run's lease by id",
  'src/server/features/processing-runs/runner.ts: failAbandonedCreation': 'failing a pending run whose creating process is gone',
  'src/server/features/processing-runs/runner.ts: forgetGoneInstances':
    'the run sweep deletes heartbeat rows of processes gone for four leases (app_instance: no organization)',
  'src/server/features/processing-runs/runner.ts: renewRun': "renewing a run's lease by id",
  'src/server/features/processing-runs/runner.ts: transaction': 'the start-up sweep over every organization: failing abandoned runs',
  'src/server/features/sequences/engine.ts: claimJobs': "the job sweep: giving step jobs to several organizations' enrollments at once",
  'src/server/features/sequences/engine.ts: enrollmentsNeedingJobs': 'the job sweep: forgetting lost job ids across organizations',
  'src/server/features/sequences/engine.ts: takeEnrollments': "a batch of step jobs' enrollments (several organizations), taken by this process",
  'src/server/features/sms/delivery-status.ts: transaction': "a provider's delivery callback by message id, before its organization is known",
  'src/server/jobs/jobs.ts: claimPeriod': 'claiming a period of a periodic sweep (background_sweep: no organization)',
  'src/server/jobs/register.ts: beatInstance': "this process's heartbeat (app_instance: no organization)",
};

/** A statement that changes rows or statistics: drizzle's insert/update/delete, or the same in raw SQL. */
const WRITES = /\.\s*(insert|update|delete)\s*\(|\b(insert\s+into|delete\s+from|on\s+conflict|analyze)\b|\bupdate\s+\w+(\s+\w+)?\s+set\b/i;
const READ_METHODS = new Set(['select', 'selectDistinct']);

/** The text of `name`'s definition (a function or const arrow) anywhere under src/server, up to its closing brace. */
function definition(sources: Record<string, string>, name: string): string | undefined {
  const start = new RegExp(`(?:function\\s+${name}\\s*[(<]|const\\s+${name}\\s*=)`);
  for (const text of Object.values(sources)) {
    const found = start.exec(text);
    if (!found) continue;
    const rest = text.slice(found.index);
    const end = rest.search(/\n}\n/);
    return end < 0 ? rest : rest.slice(0, end + 2);
  }
  return undefined;
}

/** Whether `name` writes, itself or through a function it hands its database handle to (a few levels deep). */
function writes(sources: Record<string, string>, name: string, depth = 0): boolean {
  const text = definition(sources, name);
  if (text === undefined) throw new Error(`${name} is given the system handle but its definition was not found under src/server`);
  if (WRITES.test(text)) return true;
  if (depth >= 3) return false;
  const handedOn = [...text.matchAll(/(\w+)\s*\(\s*(executor|system|tx|db)\b\s*,/g)].map((match) => match[1]);
  return handedOn.some((callee) => callee !== name && definition(sources, callee) !== undefined && writes(sources, callee, depth + 1));
}

/** Where a file gives the owner handle to something: `systemDb(...)` passed to a function, its methods, or a variable holding it. */
function systemHandleUses(text: string): Array<{ kind: 'call' | 'method'; name: string }> {
  const uses: Array<{ kind: 'call' | 'method'; name: string }> = [];
  for (const match of text.matchAll(/(\w+)\s*\(\s*systemDb\(/g)) uses.push({ kind: 'call', name: match[1] });
  for (const match of text.matchAll(/systemDb\([^)]*\)\s*\.\s*(\w+)/g)) uses.push({ kind: 'method', name: match[1] });
  for (const variable of text.matchAll(/const (\w+) = systemDb\(/g)) {
    for (const match of text.matchAll(new RegExp(`(\\w+)\\s*\\(\\s*${variable[1]}\\b`, 'g'))) uses.push({ kind: 'call', name: match[1] });
    for (const match of text.matchAll(new RegExp(`\\b${variable[1]}\\s*\\.\\s*(\\w+)`, 'g'))) uses.push({ kind: 'method', name: match[1] });
  }
  return uses;
}

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

  it('writes through the owner handle only in the listed, justified places (lookups first, then the work under runAsOrganization)', () => {
    const sources = Object.fromEntries(files.map((file) => [file, code(file)]));
    const found = new Set<string>();
    for (const file of files) {
      for (const use of systemHandleUses(sources[file])) {
        const isWrite = use.kind === 'method' ? !READ_METHODS.has(use.name) : writes(sources, use.name);
        if (isWrite) found.add(`${file}: ${use.name}`);
      }
    }
    expect([...found].sort()).toEqual(Object.keys(SYSTEM_WRITES).sort());
  });

  it('keeps inbound SMS and calls to lookups on the owner handle: STOP, consent and the thread are written in the organization', () => {
    const sources = Object.fromEntries(files.map((file) => [file, code(file)]));
    for (const file of ['src/server/features/sms/inbound.ts', 'src/server/features/calls/inbound-twilio.ts', 'src/server/features/calls/webhook.ts']) {
      expect(systemHandleUses(sources[file]).filter((use) => use.kind === 'method' || writes(sources, use.name))).toEqual([]);
      expect(sources[file]).toMatch(/runAsOrganization\(/);
    }
  });

  it('the write detector sees a write (so the check above can fail)', () => {
    const sources = {
      'a.ts': 'export async function markAll(system: SystemDb) {\n  await touch(system, 1);\n}\n',
      'b.ts': 'async function touch(executor: Executor, n: number) {\n  await executor.execute(sql`update person p set seen = true`);\n}\n',
      'c.ts': 'async function look(executor: Executor) {\n  return executor.select().from(person);\n}\n',
    };
    expect(writes(sources, 'markAll')).toBe(true);
    expect(writes(sources, 'look')).toBe(false);
    expect(systemHandleUses('await markAll(systemDb(deps.db)); const s = systemDb(db); await s.delete(person);')).toEqual([
      { kind: 'call', name: 'markAll' },
      { kind: 'method', name: 'delete' },
    ]);
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
