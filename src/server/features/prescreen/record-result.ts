import type { PrescreenAnswerInput, PrescreenResult, PrescreenSourceType } from '../../../contract/prescreen';
import type { Database } from '../../db/client';
import type { Transaction } from '../../db/scoped';
import { badRequest, conflict, notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { hoursSinceFirstContact, recordActivity } from '../../activity';
import { funnelSignals } from '../../funnel-signals';
import { findCandidate, insertContactEvents, linkTrial, trialIdsByCandidate, changeCandidateStatus } from '../candidates/service';
import { recordPrescreenFacts } from '../matching/facts';
import { listCriteria } from '../trials/service';
import { evaluatePrescreen, normalizeAnswers } from './engine';
import { AGENT_LABEL, event, reachableIds, runIn, staffActor, type PrescreenActor, type PrescreenTarget } from './actors';
import { FURTHER_ALONG, STATUS_FOR_RECOMMENDATION, loadResult } from './prescreen-result';
import { findForm, findFormVersion, insertResult } from './queries';

// ---- recording a result (manual runs now; calls and chats later) ----

export interface RecordPrescreenInput {
  candidateId: string;
  /** The form; its current version is the one asked. */
  formId: string;
  sourceType: PrescreenSourceType;
  /** The call or conversation id; null for a manual run. */
  sourceId?: string | null;
  answers: PrescreenAnswerInput[];
  /** Defaults to the staff member of a scope, or the agent of the source type. */
  actor?: PrescreenActor;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * Records one prescreen inside an open transaction: checks the answers against the form's current version
 * (400 naming the question), runs the engine, stores the result, links the candidate to the trial, writes the
 * 'prescreen' contact event, moves the candidate along the funnel (through the candidates' status change,
 * so status history has it) and audits. Ids outside `reachable` answer 404.
 */
export async function recordPrescreenResultInTransaction(
  tx: Transaction,
  reachable: readonly string[],
  actor: PrescreenActor,
  input: RecordPrescreenInput,
): Promise<PrescreenResult> {
  const candidateRow = await findCandidate(tx, input.candidateId, true);
  if (!candidateRow || !reachable.includes(candidateRow.organizationId)) throw notFound('Candidate not found');
  const form = await findForm(tx, input.formId);
  if (!form || !reachable.includes(form.organizationId)) throw notFound('Prescreen form not found');
  if (form.organizationId !== candidateRow.organizationId) {
    throw badRequest("formId: The form belongs to another organization than the candidate's", [
      { path: 'formId', message: "Not a form of the candidate's organization" },
    ]);
  }
  if (form.status !== 'published') throw conflict('Publish the prescreen form before running it');
  const version = await findFormVersion(tx, form.id, form.currentVersion);
  if (!version) throw conflict(`The prescreen form has no version ${form.currentVersion}`);

  const checked = normalizeAnswers(version.blocks, input.answers);
  if (checked.issues.length) {
    throw badRequest(
      checked.issues.map((issue) => `answers.${issue.index}: ${issue.message}`).join('; '),
      checked.issues.map((issue) => ({ path: `answers.${issue.index}`, message: issue.message })),
    );
  }
  const criteria = await listCriteria(tx, [form.trialId]);
  const outcome = evaluatePrescreen({
    blocks: version.blocks,
    criteria: criteria.map((criterion) => ({ id: criterion.id, kind: criterion.kind, text: criterion.text })),
    answers: input.answers,
    today: todayUtc(),
  });

  const linked = (await trialIdsByCandidate(tx, [candidateRow.id])).get(candidateRow.id) ?? [];
  if (!linked.includes(form.trialId)) await linkTrial(tx, candidateRow.organizationId, form.trialId, [candidateRow.id]);

  const row = await insertResult(tx, {
    organizationId: candidateRow.organizationId,
    candidateId: candidateRow.id,
    trialId: form.trialId,
    formId: form.id,
    formVersionId: version.id,
    sourceType: input.sourceType,
    sourceId: input.sourceId ?? null,
    answers: outcome.answers,
    evaluations: outcome.evaluations,
    aiRecommendation: outcome.recommendation,
    aiReasons: outcome.reasons,
    createdByUserId: actor.userId,
  });
  // Every answered question linked to a criterion with a rule becomes a candidate fact the trial matcher uses.
  const rules = new Map(criteria.map((criterion) => [criterion.id, criterion.rule]));
  const questions = new Map(outcome.answers.map((answer) => [answer.questionId, answer.question]));
  const facts = await recordPrescreenFacts(
    tx,
    candidateRow.organizationId,
    candidateRow.id,
    row.id,
    outcome.evaluations.flatMap((evaluation) =>
      evaluation.decidingQuestionId && evaluation.decidingAnswer !== null
        ? [
            {
              criterionId: evaluation.criterionId,
              rule: rules.get(evaluation.criterionId) ?? null,
              question: questions.get(evaluation.decidingQuestionId) ?? '',
              answer: evaluation.decidingAnswer,
            },
          ]
        : [],
    ),
  );
  await recordActivity(tx, [
    {
      organizationId: row.organizationId,
      trialId: row.trialId,
      candidateId: row.candidateId,
      kind: 'prescreen_result',
      source: input.sourceType,
      label: outcome.recommendation,
      value: await hoursSinceFirstContact(tx, row.candidateId, row.createdAt),
      referenceId: row.id,
      occurredAt: row.createdAt,
    },
  ]);
  await insertContactEvents(tx, [
    event(candidateRow, actor, 'prescreen', {
      summary: `Prescreen (${input.sourceType}): ${outcome.recommendation}`,
      details: { resultId: row.id, formId: form.id, formVersion: version.version, sourceType: input.sourceType, recommendation: outcome.recommendation },
      referenceId: row.id,
    }),
  ]);
  if (!FURTHER_ALONG.includes(candidateRow.status)) {
    await changeCandidateStatus(tx, candidateRow, STATUS_FOR_RECOMMENDATION[outcome.recommendation], {
      actor,
      reason: `Prescreen ${outcome.recommendation}`,
      action: 'candidate.status.prescreen',
      channel: input.sourceType,
    });
  }
  // POTENTIAL: the person may fit once we know more; sequences listening for it follow up.
  if (outcome.recommendation === 'POTENTIAL')
    await funnelSignals.triggered(tx, candidateRow.organizationId, 'prescreen_potential', [candidateRow.id], [form.trialId]);
  await recordAudit(
    tx,
    rowChange(actor.userId, row, 'prescreen.result.create', 'prescreen_result', {
      candidateId: candidateRow.id,
      formId: form.id,
      formVersion: version.version,
      sourceType: input.sourceType,
      recommendation: outcome.recommendation,
      answered: outcome.answers.filter((answer) => answer.value !== null).length,
      facts,
      ...(linked.includes(form.trialId) ? {} : { trialLinked: form.trialId }),
    }),
  );
  return loadResult(tx, row.id);
}

/**
 * The one way a prescreen result is recorded: manual runs (with the staff scope), calls and chats (with the
 * organization of the call or conversation). See recordPrescreenResultInTransaction.
 */
export async function recordPrescreenResult(db: Database, target: PrescreenTarget, input: RecordPrescreenInput): Promise<PrescreenResult> {
  return runIn(db, target, async (tx) => {
    const actor = input.actor ?? ('organizationId' in target ? { userId: null, label: AGENT_LABEL[input.sourceType] } : await staffActor(tx, target));
    return recordPrescreenResultInTransaction(tx, reachableIds(target), actor, input);
  });
}
