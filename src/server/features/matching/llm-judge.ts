import type { CriterionEvidence, LlmJudgement } from '../../../contract/matching';
import { recordActivity } from '../../activity';
import { recordAudit } from '../../audit';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { AppDeps } from '../../http/context';
import { AppError } from '../../http/errors';
import { CriteriaReaderError } from '../../integrations/llm/criteria-reader-error';
import type { NumberedSentence } from '../../integrations/llm/criterion-judge';
import type { MatchCriterion } from './evaluate';
import { splitSentences } from './note-text';
import { type CriterionJudgementRow, saveJudgements } from './queries-judgements';
import { matchCriteria } from './queries-run-reads';

/**
 * The optional language-model judge (decision 097, the TrialGPT approach): for criteria the rules leave unknown
 * from a candidate's structured facts, the model reads the candidate's notes, sentence by sentence, and says
 * met / not met / unknown with an explanation and the sentences it used. Its judgement is `llm` evidence beside
 * the rule's "unknown": it never changes a class, and a "not met" flags the candidate for a person to check.
 */

/** Criteria a model may judge: the rules left them unknown, and they are not for the site to decide. */
export function judgeable(criterion: MatchCriterion & { text: string }, outcome: CriterionEvidence['outcome']): boolean {
  return outcome === 'unknown' && criterion.rule?.type !== 'site_judgement' && !criterion.population;
}

export const toJudgement = (row: CriterionJudgementRow): LlmJudgement => ({
  verdict: row.verdict,
  explanation: row.explanation,
  sentences: row.sentences,
  model: row.model,
  judgedAt: row.judgedAt.toISOString(),
});

/** The `llm` evidence of each criterion the rules left unknown, and how many of them the model judged "not met". */
export function withJudgements<T extends { criterionId: string; outcome: CriterionEvidence['outcome'] }>(
  evidence: T[],
  judgements: CriterionJudgementRow[],
): { evidence: Array<T & { llm: LlmJudgement | null }>; flagged: number } {
  const byCriterion = new Map(judgements.map((row) => [row.criterionId, row]));
  const out = evidence.map((item) => {
    const row = item.outcome === 'unknown' ? byCriterion.get(item.criterionId) : undefined;
    return { ...item, llm: row ? toJudgement(row) : null };
  });
  return { evidence: out, flagged: out.filter((item) => item.llm?.verdict === 'not_met').length };
}

/** Per candidate, the criteria a model judged "not met". */
export type Flags = Map<string, Set<string>>;

export function flagsOf(pairs: Array<{ candidateId: string; criterionId: string }>): Flags {
  const flags: Flags = new Map();
  for (const pair of pairs) {
    if (!flags.has(pair.candidateId)) flags.set(pair.candidateId, new Set());
    flags.get(pair.candidateId)!.add(pair.criterionId);
  }
  return flags;
}

/** How many of the criteria the rules leave unknown a model judged "not met". */
export function flaggedCount(unknownIds: readonly string[], flagged: Set<string> | undefined): number {
  if (!flagged) return 0;
  let count = 0;
  for (const id of unknownIds) if (flagged.has(id)) count++;
  return count;
}

/** A model's "not met" never excludes: it leaves a likely candidate possibly eligible, for a person to check. */
export const classWithFlags = <C extends string>(matchClass: C, flagged: number): C | 'possible' =>
  matchClass === 'likely' && flagged > 0 ? 'possible' : matchClass;

/** The candidate's notes as numbered sentences, oldest note first (ids start at 1, as TrialGPT numbers them). */
export function numberedSentences(notes: Array<{ id: string; body: string }>): Array<NumberedSentence & { noteId: string }> {
  const sentences: Array<NumberedSentence & { noteId: string }> = [];
  for (const note of notes)
    for (const sentence of splitSentences(note.body)) sentences.push({ id: sentences.length + 1, noteId: note.id, text: sentence.text });
  return sentences;
}

const notConfigured = () =>
  new AppError(
    409,
    'No language model may read notes here: ask an administrator to connect one and to allow it to read candidates’ clinical notes',
    'LLM_NOT_CONFIGURED',
  );

/**
 * Asks the model about the candidate's judgeable criteria and stores its answers. The model is called outside any
 * transaction (it may take a minute); what it answered is stored only for criteria still worded as they were sent.
 */
export async function judgeCriteria(
  deps: AppDeps,
  scope: RequestScope,
  input: {
    organizationId: string;
    trialId: string;
    candidateId: string;
    criteria: Array<MatchCriterion & { text: string }>;
    notes: Array<{ id: string; body: string }>;
  },
): Promise<number> {
  const judge = deps.criterionJudge;
  if (!judge) throw notConfigured();
  if (!input.criteria.length) return 0;
  const sentences = numberedSentences(input.notes);
  if (!sentences.length) throw new AppError(409, 'The candidate has no clinical notes for the language model to read; add a note first', 'NO_CLINICAL_NOTES');
  let answers: Awaited<ReturnType<typeof judge.judge>>;
  try {
    answers = await judge.judge(
      input.criteria.map((criterion) => ({ kind: criterion.kind, text: criterion.text })),
      sentences.map(({ id, text }) => ({ id, text })),
    );
  } catch (error) {
    if (error instanceof CriteriaReaderError) throw new AppError(502, `No judgement: ${error.message}`, 'LLM_ERROR');
    throw error;
  }
  const byId = new Map(sentences.map((sentence) => [sentence.id, sentence]));
  return runScoped(deps.db, scope, async (tx) => {
    const current = new Map((await matchCriteria(tx, [input.trialId])).map((criterion) => [criterion.id, criterion.text]));
    const rows = input.criteria.flatMap((criterion, index) => {
      const answer = answers.answers[index];
      if (!answer || current.get(criterion.id) !== criterion.text) return [];
      return [
        {
          organizationId: input.organizationId,
          trialId: input.trialId,
          candidateId: input.candidateId,
          criterionId: criterion.id,
          criterionText: criterion.text,
          verdict: answer.verdict,
          explanation: answer.explanation,
          sentences: answer.sentenceIds.map((id) => byId.get(id)!).map(({ id, noteId, text }) => ({ id, noteId, text })),
          model: judge.model,
        },
      ];
    });
    await saveJudgements(tx, rows);
    // What the model's tokens cost, on the costs dashboard (decision 031), as for rule suggestions.
    if (answers.totalTokens > 0) {
      await recordActivity(tx, [
        {
          organizationId: input.organizationId,
          trialId: input.trialId,
          kind: 'spend',
          source: 'manual',
          label: 'llm_tokens',
          value: (answers.totalTokens / 1000) * deps.config.rates.llmThousandTokensUsd,
        },
      ]);
    }
    // Counts only: never the notes' words or the model's explanation.
    await recordAudit(tx, {
      organizationId: input.organizationId,
      actorUserId: scope.userId,
      action: 'candidate.match.llm_judge',
      entityType: 'candidate',
      entityId: input.candidateId,
      changes: {
        trialId: input.trialId,
        model: judge.model,
        asked: input.criteria.length,
        met: rows.filter((row) => row.verdict === 'met').length,
        notMet: rows.filter((row) => row.verdict === 'not_met').length,
        unknown: rows.filter((row) => row.verdict === 'unknown').length,
      },
    });
    return rows.length;
  });
}
