import { and, asc, desc, eq, inArray, like, or } from 'drizzle-orm';
import type { Executor } from '../../db/scoped';
import { auditLog, candidate, candidateTrial, prescreenForm, trial, voiceAgent } from '../../db/schema';

/** When the demo organization's data was last seeded or reset (its audit trail). */
export async function lastSeededAt(executor: Executor, organizationId: string): Promise<Date | null> {
  const [row] = await executor
    .select({ at: auditLog.createdAt })
    .from(auditLog)
    .where(and(eq(auditLog.organizationId, organizationId), or(eq(auditLog.action, 'demo.seed'), eq(auditLog.action, 'demo.reset'))))
    .orderBy(desc(auditLog.createdAt))
    .limit(1);
  return row?.at ?? null;
}

export async function demoTrials(executor: Executor, organizationId: string) {
  const trials = await executor
    .select({ id: trial.id, title: trial.title, publicTitle: trial.publicTitle, status: trial.status, createdAt: trial.createdAt })
    .from(trial)
    .where(eq(trial.organizationId, organizationId))
    .orderBy(asc(trial.createdAt));
  const forms = await executor
    .select({ id: prescreenForm.id, trialId: prescreenForm.trialId, publishedAt: prescreenForm.publishedAt })
    .from(prescreenForm)
    .where(and(eq(prescreenForm.organizationId, organizationId), eq(prescreenForm.status, 'published')));
  const agents = await executor
    .select({ id: voiceAgent.id, name: voiceAgent.name, trialId: voiceAgent.trialId, active: voiceAgent.active })
    .from(voiceAgent)
    .where(and(eq(voiceAgent.organizationId, organizationId), eq(voiceAgent.type, 'PRESCREEN')));
  return trials.map((row) => ({
    id: row.id,
    title: row.publicTitle ?? row.title,
    status: row.status,
    formId: forms.find((form) => form.trialId === row.id)?.id ?? null,
    voiceAgent: (() => {
      const agent = agents.filter((item) => item.trialId === row.id).sort((a, b) => Number(b.active) - Number(a.active))[0];
      return agent ? { id: agent.id, name: agent.name, active: agent.active } : null;
    })(),
  }));
}

/** A few early-funnel candidates per trial who may be called (a phone, call consent, not do-not-contact). */
export async function sampleCandidates(executor: Executor, organizationId: string, trialIds: string[], perTrial: number) {
  if (!trialIds.length) return [];
  const rows = await executor
    .select({
      id: candidate.id,
      firstName: candidate.firstName,
      lastName: candidate.lastName,
      city: candidate.city,
      preferredLanguage: candidate.preferredLanguage,
      status: candidate.status,
      trialId: candidateTrial.trialId,
    })
    .from(candidate)
    .innerJoin(candidateTrial, eq(candidateTrial.candidateId, candidate.id))
    .where(
      and(
        eq(candidate.organizationId, organizationId),
        inArray(candidateTrial.trialId, trialIds),
        inArray(candidate.status, ['new', 'contacted']),
        eq(candidate.consentCalls, true),
        eq(candidate.doNotContact, false),
      ),
    )
    .orderBy(asc(candidate.createdAt), asc(candidate.id))
    .limit(400);
  const byTrial = new Map<string, typeof rows>();
  for (const row of rows) {
    const list = byTrial.get(row.trialId) ?? [];
    if (list.length < perTrial) list.push(row);
    byTrial.set(row.trialId, list);
  }
  return trialIds.flatMap((id) => byTrial.get(id) ?? []);
}

/** A demo trial's registry number (which of the seed's DEMO_TRIALS it is). */
export async function trialNctId(executor: Executor, organizationId: string, trialId: string): Promise<string | null> {
  const [row] = await executor
    .select({ nctId: trial.nctId })
    .from(trial)
    .where(and(eq(trial.organizationId, organizationId), eq(trial.id, trialId)));
  return row?.nctId ?? null;
}

/** Phones already given to sample people (the fictional +1 312 555-01xx range). */
export async function samplePhonesInUse(executor: Executor, organizationId: string): Promise<Set<string>> {
  const rows = await executor
    .select({ phone: candidate.phone })
    .from(candidate)
    .where(and(eq(candidate.organizationId, organizationId), like(candidate.phone, '+1312555%')));
  return new Set(rows.map((row) => row.phone ?? ''));
}
