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

/**
 * The ids of every trial the actor's organization has: a voice agent calls only the people of its trial
 * (decision 174), so a test person meant to be called is linked to the site's trials.
 */
export async function allTrialIds(actor: Actor): Promise<string[]> {
  const answer = await actor.get('/api/trials/?limit=100');
  if (answer.status !== 200) throw new Error(`could not list trials: ${answer.status}`);
  return (answer.body.trials as Array<{ id: string }>).map((listed) => listed.id);
}
