import { statusChangeSummary } from '../../../contract/words';
import type { BulkConsentInput, CandidateStatus } from '../../../contract/candidates';
import { auditLog } from '../../db/schema';
import { runScoped, selectOrganizations, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { funnelSignals } from '../../funnel-signals';
import {
  findCandidatesMatching,
  findTrialInOrganization,
  insertContactEvents,
  linkTrial,
  unlinkTrial,
  updateCandidateRow,
  type NewCandidateRow,
  type NewContactEvent,
} from './queries';

import { removeCandidates, actorOf, event, loadAllCandidates, targetOrganization } from './candidate-record';
import { consentInstant, planFunnelChange } from './status-rules';

// ---- bulk actions ----

/** Returns the chosen candidates to `new`; each change is a status_change event, so the history stays. */
export async function resetStatus(db: Database, scope: RequestScope, organizationId: string | undefined, candidateIds: string[]) {
  const orgId = targetOrganization(scope, organizationId);
  return runScoped(db, scope, async (tx) => {
    const rows = await loadAllCandidates(tx, scope, candidateIds, orgId);
    const actor = await actorOf(tx, scope);
    const unchanged: string[] = [];
    const skippedDoNotContact: string[] = [];
    const events: NewContactEvent[] = [];
    let reset = 0;
    for (const row of rows) {
      if (row.status === 'new') unchanged.push(row.id);
      else if (row.doNotContact) skippedDoNotContact.push(row.id);
      else {
        await updateCandidateRow(tx, row.id, { status: 'new' });
        events.push(
          event(row, actor, {
            kind: 'status_change',
            summary: statusChangeSummary(row.status, 'new'),
            details: { from: row.status, to: 'new', reason: 'Status reset' },
          }),
        );
        await recordAudit(tx, rowChange(scope.userId, row, 'candidate.reset_status', 'candidate', { status: { from: row.status, to: 'new' } }));
        reset++;
      }
    }
    await insertContactEvents(tx, events);
    return { reset, unchanged, skippedDoNotContact };
  });
}

export async function bulkUpdate(
  db: Database,
  scope: RequestScope,
  input: { candidateIds: string[]; status?: CandidateStatus; statusReason?: string; addTrialId?: string; removeTrialId?: string },
) {
  return runScoped(db, scope, async (tx) => {
    const rows = await loadAllCandidates(tx, scope, input.candidateIds);
    for (const trialId of [input.addTrialId, input.removeTrialId]) {
      if (!trialId) continue;
      for (const orgId of new Set(rows.map((row) => row.organizationId))) {
        if (!(await findTrialInOrganization(tx, trialId, orgId))) throw notFound("Trial not found in the candidates' organization");
      }
    }
    const actor = await actorOf(tx, scope);
    const events: NewContactEvent[] = [];
    let updated = 0;
    for (const row of rows) {
      const change = input.status ? planFunnelChange(row, { status: input.status, statusReason: input.statusReason }) : { values: {}, events: [], audit: {} };
      const audit: Record<string, unknown> = { ...change.audit };
      if (Object.keys(change.values).length) {
        await updateCandidateRow(tx, row.id, change.values);
        await funnelSignals.funnelChanged(tx, row.id, change.values);
      }
      events.push(...change.events.map((values) => event(row, actor, values)));
      if (input.addTrialId) audit.addTrialId = input.addTrialId;
      if (input.removeTrialId) audit.removeTrialId = input.removeTrialId;
      if (Object.keys(audit).length) {
        await recordAudit(tx, rowChange(scope.userId, row, 'candidate.bulk_update', 'candidate', audit));
        updated++;
      }
    }
    const ids = rows.map((row) => row.id);
    if (input.addTrialId) await linkTrial(tx, rows[0].organizationId, input.addTrialId, ids);
    if (input.removeTrialId) await unlinkTrial(tx, input.removeTrialId, ids);
    await insertContactEvents(tx, events);
    return { updated };
  });
}

export async function bulkDelete(db: Database, scope: RequestScope, candidateIds: string[]) {
  return runScoped(db, scope, async (tx) => {
    const rows = await loadAllCandidates(tx, scope, candidateIds);
    await removeCandidates(tx, scope, rows, true);
    return { deleted: rows.length };
  });
}

/**
 * Records documented consent (SMS and/or calls, with its source and date) for the chosen candidates or every
 * candidate matching the list's filters. Do-not-contact candidates are skipped (counted); a candidate who
 * already has that consent with a documented source is unchanged. One consent event and audit record per
 * candidate changed.
 */
export async function bulkConsent(db: Database, scope: RequestScope, input: BulkConsentInput) {
  return runScoped(db, scope, async (tx) => {
    const rows = input.candidateIds
      ? await loadAllCandidates(tx, scope, input.candidateIds)
      : await findCandidatesMatching(tx, {
          organizationIds: selectOrganizations(scope, input.filter!.organizationId, undefined, undefined),
          search: input.filter!.search,
          statuses: input.filter!.status,
          trialId: input.filter!.trialId,
        });
    const actor = await actorOf(tx, scope);
    const at = consentInstant(input.date);
    const day = at.toISOString().slice(0, 10);
    const events: NewContactEvent[] = [];
    const audits: Array<typeof auditLog.$inferInsert> = [];
    let updated = 0;
    let unchanged = 0;
    let skippedDoNotContact = 0;
    for (const row of rows) {
      if (row.doNotContact) {
        skippedDoNotContact++;
        continue;
      }
      const values: Partial<NewCandidateRow> = {};
      const consent: Record<string, { from: boolean; to: boolean }> = {};
      if (input.sms && !(row.consentSms && row.consentSmsSource)) {
        Object.assign(values, { consentSms: true, consentSmsSource: input.source, consentSmsAt: at });
        consent.sms = { from: row.consentSms, to: true };
      }
      if (input.calls && !(row.consentCalls && row.consentCallsSource)) {
        Object.assign(values, { consentCalls: true, consentCallsSource: input.source, consentCallsAt: at });
        consent.calls = { from: row.consentCalls, to: true };
      }
      if (Object.keys(values).length === 0) {
        unchanged++;
        continue;
      }
      await updateCandidateRow(tx, row.id, values);
      const parts = [consent.sms ? 'SMS on' : null, consent.calls ? 'calls on' : null].filter(Boolean).join(', ');
      events.push(
        event(row, actor, {
          kind: 'consent',
          summary: `Consent: ${parts} (${input.source}, ${day})`,
          details: { ...consent, source: input.source, consentAt: at.toISOString(), bulk: true },
        }),
      );
      audits.push({
        organizationId: row.organizationId,
        actorUserId: scope.userId,
        action: 'candidate.bulk_consent',
        entityType: 'candidate',
        entityId: row.id,
        changes: { consent: Object.keys(consent), consentAt: day },
      });
      updated++;
    }
    await insertContactEvents(tx, events);
    for (let start = 0; start < audits.length; start += 1000) await tx.insert(auditLog).values(audits.slice(start, start + 1000));
    return { updated, unchanged, skippedDoNotContact };
  });
}
