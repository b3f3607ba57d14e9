import {
  type Candidate,
  type CreateCandidateInput,
  type UpdateCandidateInput,
  CANDIDATE_PROFILE_FIELDS,
  DEFAULT_DO_NOT_CONTACT_REASON,
} from '../../../contract/candidates';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { funnelSignals } from '../../funnel-signals';
import {
  findTrialInOrganization,
  insertCandidate,
  insertContactEvents,
  linkTrial,
  updateCandidateRow,
  type CandidateRow,
  type NewCandidateRow,
} from './queries';

import { removeCandidates, actorOf, event, guardDuplicates, loadCandidate, targetOrganization, withTrials } from './candidate-record';
import { consentInstant, DEFAULT_CONSENT_SOURCE, planFunnelChange, resolveStatusAndFlag, zoneFor } from './status-rules';

// What other features may read and write of this one (its queries.ts is its own; tests/unit/architecture.test.ts).
export {
  eventTime,
  findCandidate,
  findCandidateByPhone,
  findCandidates,
  findCandidatesByPhone,
  findCandidatesMatching,
  findTrialInOrganization,
  insertCandidate,
  insertContactEvents,
  linkTrial,
  trialIdsByCandidate,
  updateCandidateRow,
  userName,
} from './queries';
export type { CandidateRow, NewCandidateRow, NewContactEvent } from './queries';

// The candidates feature's surface: the list and one candidate below; the record and scope helpers
// (candidate-record.ts), status and consent rules (status-rules.ts), prescreen notes (prescreen-notes.ts) and
// bulk actions (bulk-actions.ts).
export { targetOrganization, toCandidate } from './candidate-record';
export { changeCandidateStatus, DEFAULT_CONSENT_SOURCE, resolveStatusAndFlag } from './status-rules';
export * from './prescreen-notes';
export * from './bulk-actions';
// The import's reading of condition and medication names, shared with the FHIR reader (matching).
export { conceptOfCode, longestMention } from './import-facts';

// The list and one candidate's reads: their one-message choreography (decision 114) lives in read-paths.ts.
export { getCandidate, listCandidates } from './read-paths';

// ---- one candidate ----

/** Database values of the writable fields given in `input` (undefined fields are left out). */
function fieldValues(input: Partial<CreateCandidateInput>): Partial<NewCandidateRow> {
  const values: Partial<NewCandidateRow> = {};
  for (const key of [...CANDIDATE_PROFILE_FIELDS, 'customFields'] as const) {
    if (input[key] !== undefined) (values as Record<string, unknown>)[key] = input[key];
  }
  return values;
}

/** `within`: more work on the new candidate in the same transaction (an import's facts), so both land or neither. */
export async function createCandidate(
  db: Database,
  scope: RequestScope,
  organizationId: string | undefined,
  input: CreateCandidateInput,
  within?: (tx: Transaction, candidate: CandidateRow) => Promise<void>,
): Promise<Candidate> {
  const orgId = targetOrganization(scope, organizationId);
  return guardDuplicates(() =>
    runScoped(db, scope, async (tx) => {
      for (const trialId of input.trialIds ?? []) {
        if (!(await findTrialInOrganization(tx, trialId, orgId))) throw notFound('Trial not found');
      }
      const initial = resolveStatusAndFlag({ status: 'new', doNotContact: false }, { status: input.status, doNotContact: input.consent?.doNotContact });
      const documented = { source: input.consent?.source ?? DEFAULT_CONSENT_SOURCE, at: consentInstant(input.consent?.date) };
      const row = await insertCandidate(tx, {
        ...fieldValues(input),
        timeZone: zoneFor(input) ?? null,
        firstName: input.firstName,
        organizationId: orgId,
        status: initial.status,
        consentSms: input.consent?.sms ?? false,
        consentCalls: input.consent?.calls ?? false,
        consentSmsSource: input.consent?.sms ? documented.source : null,
        consentSmsAt: input.consent?.sms ? documented.at : null,
        consentCallsSource: input.consent?.calls ? documented.source : null,
        consentCallsAt: input.consent?.calls ? documented.at : null,
        doNotContact: initial.doNotContact,
        doNotContactAt: initial.doNotContact ? new Date() : null,
        doNotContactReason: initial.doNotContact ? (input.consent?.doNotContactReason ?? DEFAULT_DO_NOT_CONTACT_REASON) : null,
      });
      for (const trialId of new Set(input.trialIds ?? [])) await linkTrial(tx, orgId, trialId, [row.id]);
      const actor = await actorOf(tx, scope);
      await insertContactEvents(tx, [
        event(row, actor, { kind: 'created', summary: `Added by ${actor.label}`, details: { source: row.source, status: row.status } }),
        ...(row.consentSms || row.consentCalls
          ? [
              event(row, actor, {
                kind: 'consent',
                summary: `Consent: ${[row.consentSms ? 'SMS on' : null, row.consentCalls ? 'calls on' : null].filter(Boolean).join(', ')} (${documented.source}, ${documented.at.toISOString().slice(0, 10)})`,
                details: {
                  ...(row.consentSms ? { sms: { from: false, to: true } } : {}),
                  ...(row.consentCalls ? { calls: { from: false, to: true } } : {}),
                  source: documented.source,
                  consentAt: documented.at.toISOString(),
                },
              }),
            ]
          : []),
      ]);
      await recordAudit(tx, {
        organizationId: orgId,
        actorUserId: scope.userId,
        action: 'candidate.create',
        entityType: 'candidate',
        entityId: row.id,
        changes: { fields: Object.keys(fieldValues(input)), status: row.status, trials: input.trialIds?.length ?? 0 },
      });
      await within?.(tx, row);
      return withTrials(tx, row);
    }),
  );
}

export async function updateCandidate(db: Database, scope: RequestScope, candidateId: string, input: UpdateCandidateInput): Promise<Candidate> {
  return guardDuplicates(() =>
    runScoped(db, scope, async (tx) => {
      const row = await loadCandidate(tx, scope, candidateId, true);
      const fields = fieldValues(input);
      const zone = zoneFor(input, row);
      if (zone !== undefined) fields.timeZone = zone;
      const changedFields = Object.keys(fields).filter(
        (key) => JSON.stringify(fields[key as keyof typeof fields]) !== JSON.stringify(row[key as keyof CandidateRow] ?? null),
      );
      const funnel = planFunnelChange(row, input);
      if (changedFields.length === 0 && Object.keys(funnel.values).length === 0) return withTrials(tx, row);
      const updated = await updateCandidateRow(tx, row.id, {
        ...Object.fromEntries(changedFields.map((key) => [key, fields[key as keyof typeof fields]])),
        ...funnel.values,
      });
      await funnelSignals.funnelChanged(tx, row.id, funnel.values);
      const actor = await actorOf(tx, scope);
      const events = funnel.events.map((values) => event(row, actor, values));
      if (changedFields.length)
        events.unshift(event(row, actor, { kind: 'updated', summary: `Details updated: ${changedFields.join(', ')}`, details: { fields: changedFields } }));
      await insertContactEvents(tx, events);
      await recordAudit(
        tx,
        rowChange(scope.userId, row, 'candidate.update', 'candidate', { ...(changedFields.length ? { fields: changedFields } : {}), ...funnel.audit }),
      );
      return withTrials(tx, updated);
    }),
  );
}

/** Deletes the candidate and, by cascade, their contact history and trial links; only the audit record stays. */
export async function deleteCandidate(db: Database, scope: RequestScope, candidateId: string): Promise<void> {
  await runScoped(db, scope, async (tx) => {
    await removeCandidates(tx, scope, [await loadCandidate(tx, scope, candidateId, true)], false);
  });
}
