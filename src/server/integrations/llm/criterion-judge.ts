import { z } from 'zod';
import type { CriterionKind } from '../../../contract/trials';
import { chatJson, type LlmConfig } from './chat';
import { CriteriaReaderError } from './criteria-reader-error';

/** A criterion the rules could not decide from a candidate's structured facts. */
export interface CriterionToJudge {
  kind: CriterionKind;
  text: string;
}

/** A note sentence as the model sees it: numbered across the candidate's notes. */
export interface NumberedSentence {
  id: number;
  text: string;
}

/** In eligibility terms, like the rules: met = the person meets what the trial asks (an exclusion does not apply to them). */
export interface CriterionJudgementAnswer {
  verdict: 'met' | 'not_met' | 'unknown';
  explanation: string;
  /** The sentences it relied on (only ids that were sent). */
  sentenceIds: number[];
}

/** The port (decision 097): judges criteria against one candidate's note sentences, one answer per criterion in order. */
export interface CriterionJudge {
  readonly model: string;
  judge(criteria: readonly CriterionToJudge[], sentences: readonly NumberedSentence[]): Promise<{ answers: CriterionJudgementAnswer[]; totalTokens: number }>;
}

const AnswerSchema = z.object({
  results: z.array(
    z.object({
      index: z.number().int(),
      applies: z.boolean().nullable().optional(),
      explanation: z.string().optional(),
      sentenceIds: z.array(z.number().int()).optional(),
    }),
  ),
});

// The model says whether the criterion's statement holds for the patient ("applies"); the product turns an
// exclusion around itself, as the rules do, so the model never has to negate anything.
const SYSTEM = `You check a patient's clinical notes against clinical trial eligibility criteria (TrialGPT style).
The notes come as numbered sentences. For each criterion decide whether what it states holds for this patient:
"applies": true when the sentences show it holds, false when they show it does not, null when they do not say.
Judge only from the sentences; never guess. Give "explanation": one or two plain sentences of reasoning, and
"sentenceIds": the ids of the sentences you relied on (empty when "applies" is null).
Answer only JSON: {"results":[{"index":number,"applies":true|false|null,"explanation":string,"sentenceIds":[number]}]} with one entry per criterion.`;

/**
 * The judge over an OpenAI-compatible chat-completions API. It sends the criteria and the candidate's note
 * sentences (patient data: built only when the deployment opts in, decision 097). An answer that cites no
 * sentence it was sent, or none at all, is taken as "unknown": a verdict needs its evidence.
 */
export function createCriterionJudge(config: LlmConfig, fetchImpl: typeof fetch = fetch): CriterionJudge {
  return {
    model: config.model,
    async judge(criteria, sentences) {
      const answer = await chatJson(config, fetchImpl, {
        system: SYSTEM,
        user: JSON.stringify({ criteria: criteria.map((criterion, index) => ({ index, kind: criterion.kind, text: criterion.text })), sentences }),
      });
      const shape = AnswerSchema.safeParse(answer.content);
      if (!shape.success) throw new CriteriaReaderError('The language model did not answer in the expected JSON shape', 'format');
      const known = new Set(sentences.map((sentence) => sentence.id));
      const answers = criteria.map((criterion, index): CriterionJudgementAnswer => {
        const entry = shape.data.results.find((result) => result.index === index);
        const explanation = (entry?.explanation ?? '').trim().slice(0, 2000) || 'No explanation given';
        const sentenceIds = [...new Set((entry?.sentenceIds ?? []).filter((id) => known.has(id)))].slice(0, 20);
        if (entry?.applies == null)
          return { verdict: 'unknown', explanation: entry ? explanation : 'The model gave no answer for this criterion', sentenceIds };
        if (!sentenceIds.length) return { verdict: 'unknown', explanation: `Cited no sentence of the notes: ${explanation}`.slice(0, 2000), sentenceIds };
        const holds = entry.applies;
        return { verdict: (criterion.kind === 'inclusion') === holds ? 'met' : 'not_met', explanation, sentenceIds };
      });
      return { answers, totalTokens: answer.totalTokens };
    },
  };
}
