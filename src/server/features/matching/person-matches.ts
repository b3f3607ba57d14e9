import type { CandidateTrialMatch, CandidateTrialMatches, CandidateTrialsQuery, CriterionEvidence, MatchClass } from '../../../contract/matching';
import { CandidateTrialsQuerySchema } from '../../../contract/matching';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { AppDeps } from '../../http/context';
import { notFound } from '../../http/errors';
import { CLASS_RANK, matchPerson, type MatchCriterion, type MatchFact } from './evaluate';
import { toFact } from './facts';
import { classWithFlags, flaggedCount, withJudgements } from './llm-judge';
import { type CandidateFactRow, listFacts } from './queries-facts';
import { type CriterionJudgementRow, candidateJudgements } from './queries-judgements';
import { findCandidateBasics, linkedTrialIds } from './queries-person';
import { matchCriteria, recruitingTrials, trialConditions } from './queries-run-reads';
import { targetConditionOf } from './target-condition';

/**
 * Per-person matching (decision 133): one candidate against every recruiting trial of their organization, computed
 * now from their facts by the same rules as a trial's run and its evidence screen (`evaluate.ts`), ranked likely,
 * possible, excluded, by score within a class. Six reads in the request's transaction whatever the number of
 * trials; the evaluation is pure. Like a trial's results list, each trial carries the criteria ids not met and
 * unknown; the full evidence (a few kilobytes a trial) only when asked for (`evidence=full`). Each trial's criteria
 * begin with its target condition (target-condition.ts), as in the trial's run: without it a person with no word of
 * the trial's condition read "likely" here and "possible" in the trial matcher (issue 32).
 */

type TrialCriterion = MatchCriterion & { trialId: string; text: string };

interface Context {
  today: Date;
  linked: Set<string>;
  /** The language model's judgements of this person, by trial. */
  judgements: Map<string, CriterionJudgementRow[]>;
  factsById: Map<string, CandidateFactRow>;
  /** Whether to answer every criterion's evidence (evidence=full). */
  evidence: boolean;
}

/** Every criterion's evidence, with any language-model judgement of the criteria the rules leave unknown. */
function evidenceOf(criteria: TrialCriterion[], result: ReturnType<typeof matchPerson>, judgements: CriterionJudgementRow[], context: Context) {
  return withJudgements(
    result.outcomes.map(
      (outcome, index): Omit<CriterionEvidence, 'llm'> => ({
        criterionId: outcome.criterionId,
        kind: criteria[index].kind,
        text: criteria[index].text,
        outcome: outcome.outcome,
        key: outcome.key,
        reason: outcome.reason,
        fact: outcome.factId && context.factsById.has(outcome.factId) ? toFact(context.factsById.get(outcome.factId)!) : null,
      }),
    ),
    judgements,
  );
}

/** One trial for the person: class, score, reasons in words, and (asked for) the evidence. */
function matchTrial(
  trial: { id: string; title: string },
  criteria: TrialCriterion[],
  facts: MatchFact[],
  person: { dateOfBirth: string | null; sex: string },
  context: Context,
): CandidateTrialMatch {
  const result = matchPerson(criteria, { dateOfBirth: person.dateOfBirth, sex: person.sex, facts }, context.today);
  const judgements = context.judgements.get(trial.id) ?? [];
  const full = context.evidence ? evidenceOf(criteria, result, judgements, context) : null;
  // Without the evidence, the flags are counted from the judgements alone (most people have none).
  const flagged = full
    ? full.flagged
    : judgements.length
      ? flaggedCount(result.unknownIds, new Set(judgements.filter((row) => row.verdict === 'not_met').map((row) => row.criterionId)))
      : 0;
  const reasons: string[] = [];
  const blockers: string[] = [];
  for (const outcome of result.outcomes) {
    if (outcome.outcome === 'met' && outcome.key) reasons.push(outcome.reason);
    else if (outcome.outcome === 'not_met') blockers.push(outcome.reason);
  }
  return {
    trialId: trial.id,
    title: trial.title,
    matchClass: classWithFlags(result.matchClass, flagged),
    score: result.score,
    inTrial: context.linked.has(trial.id),
    metCount: result.metCount,
    notMetCount: result.notMetIds.length,
    unknownCount: result.unknownIds.length,
    reasons,
    blockers,
    notMetIds: result.notMetIds,
    unknownIds: result.unknownIds,
    llmFlagged: flagged,
    ...(full ? { evidence: full.evidence } : {}),
  };
}

/** The candidate against every recruiting trial of their organization, ranked; a trial with no criteria has nothing to match and is left out. */
export async function candidateTrialMatches(
  deps: AppDeps,
  scope: RequestScope,
  candidateId: string,
  query: CandidateTrialsQuery = {},
): Promise<CandidateTrialMatches> {
  const filter = CandidateTrialsQuerySchema.parse(query);
  return runScoped(deps.db, scope, async (tx) => {
    const person = await findCandidateBasics(tx, candidateId);
    if (!person) throw notFound('Candidate not found');
    const trials = await recruitingTrials(tx, person.organizationId);
    const criteria = (await matchCriteria(
      tx,
      trials.map((trial) => trial.id),
    )) as TrialCriterion[];
    const facts = await listFacts(tx, candidateId);
    const linked = await linkedTrialIds(tx, candidateId);
    const judgements = await candidateJudgements(tx, candidateId);
    const byTrial = new Map<string, TrialCriterion[]>();
    for (const criterion of criteria) {
      const own = byTrial.get(criterion.trialId);
      if (own) own.push(criterion);
      else byTrial.set(criterion.trialId, [criterion]);
    }
    for (const item of await trialConditions(tx, [...byTrial.keys()])) {
      const own = byTrial.get(item.id)!;
      const target = targetConditionOf({ conditions: item.conditions, healthyVolunteers: item.healthyVolunteers, criteria: own });
      if (target) byTrial.set(item.id, [{ ...target, trialId: item.id }, ...own]);
    }
    const judgedByTrial = new Map<string, CriterionJudgementRow[]>();
    for (const row of judgements) judgedByTrial.set(row.trialId, [...(judgedByTrial.get(row.trialId) ?? []), row]);
    const context: Context = {
      today: new Date(),
      linked,
      judgements: judgedByTrial,
      factsById: new Map(facts.map((fact) => [fact.id, fact])),
      evidence: filter.evidence === 'full',
    };
    const matchFacts = facts as MatchFact[];
    const matches = trials.flatMap((trial) => {
      const own = byTrial.get(trial.id);
      return own ? [matchTrial(trial, own, matchFacts, person, context)] : [];
    });
    matches.sort((a, b) => CLASS_RANK[a.matchClass] - CLASS_RANK[b.matchClass] || b.score - a.score || a.title.localeCompare(b.title));
    const counts: Record<MatchClass, number> = { likely: 0, possible: 0, excluded: 0 };
    for (const match of matches) counts[match.matchClass]++;
    return {
      candidate: { id: person.id, firstName: person.firstName, lastName: person.lastName, status: person.status },
      counts: { ...counts, total: matches.length },
      trials: filter.class ? matches.filter((match) => match.matchClass === filter.class) : matches,
    };
  });
}
