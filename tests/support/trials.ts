import type { Actor, ApiAnswer } from './test-app';

/**
 * Creates a trial through POST /api/trials/ and starts recruiting for it, as staff do before outreach: calls
 * and public chats only go out for a recruiting trial. Answers the creation (201) with the recruiting trial.
 */
export async function createRecruitingTrial(actor: Actor, body: Record<string, unknown>): Promise<ApiAnswer> {
  const created = await actor.post('/api/trials/', body);
  if (created.status !== 201) return created;
  const recruiting = await actor.patch(`/api/trials/${created.body.id}`, { status: 'recruiting' });
  if (recruiting.status !== 200) throw new Error(`could not start recruiting: ${recruiting.status} ${JSON.stringify(recruiting.body)}`);
  return { ...created, body: recruiting.body };
}
