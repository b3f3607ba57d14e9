import { z } from 'zod';
import { CriterionRuleSchema, type CriterionKind, type CriterionRule } from '../../../contract/trials';
import { chatJson, type LlmConfig } from './chat';
import { CriteriaReaderError } from './criteria-reader-error';

/** A criterion the deterministic reader left without a rule. */
export interface UnreadCriterion {
  kind: CriterionKind;
  text: string;
}

/** What the language model proposes for one criterion: a rule that passed the rule schema, or none. */
export interface RuleProposal {
  rule: CriterionRule | null;
  /** Why no rule was kept (the model gave none, or one the schema refused). */
  dropped?: string;
}

/** The port: proposes rules for criteria, one proposal per criterion in order, and the tokens it used (for costs). */
export interface CriteriaReader {
  readonly model: string;
  propose(criteria: readonly UnreadCriterion[]): Promise<{ proposals: RuleProposal[]; totalTokens: number }>;
}

export { CriteriaReaderError };

/** The shapes the model may answer, described once (the same schema validates what comes back). */
const RULE_GUIDE = `Each rule is a JSON object with a "type" and fields:
- {"type":"age","minYears":number|null,"maxYears":number|null}
- {"type":"sex","sex":"female"|"male"|"all"}
- {"type":"condition","condition":string,"present":boolean,"history"?:boolean,"within"?:{"value":number,"unit":"days"|"weeks"|"months"|"years"}}
- {"type":"medication","medication":string,"taking":boolean,"within"?:{...}}
- {"type":"lab","measure":string,"comparator":"<"|"<="|">"|">="|"="|"between","value":number,"upperValue"?:number,"unit"?:string,"relativeTo"?:"ULN"|"LLN"}
- {"type":"pregnancy","allowed":boolean} | {"type":"healthy_volunteers","accepted":boolean} | {"type":"contraception","required":boolean}
- {"type":"performance_status","scale":"ECOG"|"Karnofsky","min":number|null,"max":number|null}
- {"type":"smoking","smoker":boolean}
- {"type":"site_judgement","reason":"consent_capacity"|"investigator_judgement"|"protocol_compliance"|"protocol"|"permission"}
A rule states what an ELIGIBLE person is: for an exclusion criterion "Current smoker", the rule is {"type":"smoking","smoker":true} and the criterion's kind (exclusion) turns it around; do not negate it yourself.
"x times the upper limit of normal" is relativeTo "ULN" with value x, never an absolute number.
Give "quote": the exact words of the criterion the rule was read from.
Answer null for the rule when the criterion says something none of these shapes can express. Never guess.`;

const AnswerSchema = z.object({
  results: z.array(z.object({ index: z.number().int(), rule: z.unknown().nullable().optional(), quote: z.string().optional() })),
});

/** The span of the quoted words in the text, when they occur in it. */
function spanOf(text: string, quote: string | undefined): { start: number; end: number } | undefined {
  if (!quote?.trim()) return undefined;
  const start = text.toLowerCase().indexOf(quote.trim().toLowerCase());
  return start >= 0 ? { start, end: start + quote.trim().length } : undefined;
}

/**
 * The reader over an OpenAI-compatible chat-completions API (`POST {baseUrl}/chat/completions`). Criteria go
 * in batches; the answer must be JSON; every proposed rule is validated against CriterionRuleSchema, and one
 * the schema refuses is dropped (never stored). The criterion text is the only data sent: no patient data.
 */
export function createCriteriaReader(config: LlmConfig, fetchImpl: typeof fetch = fetch): CriteriaReader {
  const BATCH = 20;
  async function ask(batch: readonly UnreadCriterion[]): Promise<{ proposals: RuleProposal[]; totalTokens: number }> {
    const numbered = batch.map((criterion, index) => ({ index, kind: criterion.kind, text: criterion.text }));
    const answer = await chatJson(config, fetchImpl, {
      system: `You read clinical trial eligibility criteria into machine rules for a prescreening tool.\n${RULE_GUIDE}\nAnswer only JSON: {"results":[{"index":number,"rule":object|null,"quote":string}]} with one entry per criterion.`,
      user: JSON.stringify({ criteria: numbered }),
    });
    const totalTokens = answer.totalTokens;
    const shape = AnswerSchema.safeParse(answer.content);
    if (!shape.success) throw new CriteriaReaderError('The language model did not answer in the expected JSON shape', 'format');
    const parsed = shape.data;
    const proposals = batch.map((criterion, index): RuleProposal => {
      const entry = parsed.results.find((result) => result.index === index);
      if (!entry || entry.rule == null) return { rule: null, dropped: 'no rule proposed' };
      const candidate = { ...(entry.rule as Record<string, unknown>), span: spanOf(criterion.text, entry.quote) };
      if (candidate.span === undefined) delete candidate.span;
      const checked = CriterionRuleSchema.safeParse(candidate);
      return checked.success ? { rule: checked.data } : { rule: null, dropped: `refused by the rule schema: ${checked.error.issues[0]?.message ?? 'invalid'}` };
    });
    return { proposals, totalTokens };
  }
  return {
    model: config.model,
    async propose(criteria) {
      const proposals: RuleProposal[] = [];
      let totalTokens = 0;
      for (let offset = 0; offset < criteria.length; offset += BATCH) {
        const answer = await ask(criteria.slice(offset, offset + BATCH));
        proposals.push(...answer.proposals);
        totalTokens += answer.totalTokens;
      }
      return { proposals, totalTokens };
    },
  };
}
