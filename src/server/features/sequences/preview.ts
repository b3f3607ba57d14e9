import type { z } from '@hono/zod-openapi';
import type { PreviewResult, PreviewSchema } from '../../../contract/sequences';
import { canReach, runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { badRequest, notFound } from '../../http/errors';
import { findCandidate, targetOrganization } from '../candidates/service';
import { messageVariables } from './facts';
import { renderStep } from './messages';
import { checkTrial } from './service';

/** A message step rendered in English and Spanish for a candidate (or none), with the variables it misses. */
export async function preview(db: Database, scope: RequestScope, input: z.infer<typeof PreviewSchema>): Promise<PreviewResult> {
  const step = input.step;
  if (step.type !== 'sms' && step.type !== 'email') throw badRequest('step: Only SMS and email steps have a message to preview');
  return runScoped(db, scope, async (tx) => {
    let organizationId = targetOrganization(scope, input.organizationId);
    let person = null;
    if (input.candidateId) {
      person = await findCandidate(tx, input.candidateId);
      if (!person || !canReach(scope, person.organizationId)) throw notFound('Candidate not found');
      organizationId = person.organizationId;
    }
    if (input.trialId) await checkTrial(tx, input.trialId, organizationId);
    const variables = await messageVariables(tx, { organizationId, trialId: input.trialId ?? null }, person);
    const en = renderStep(step, 'en', variables, 'en');
    const es = renderStep(step, 'es', variables, 'es');
    return {
      candidateName: person ? `${person.firstName} ${person.lastName}`.trim() : null,
      en: { subject: en.subject, text: en.text },
      es: { subject: es.subject, text: es.text },
      missing: [...new Set([...en.missing, ...es.missing])],
    };
  });
}
