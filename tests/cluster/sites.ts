import { zoneAtHour } from '../support/zones';
import type { Client, ClusterDatabase } from './support';

/**
 * The organizations the kill -9 tests of "Prescreen all" and sequence enrollment work in, set up through the API as an
 * internal admin does (X-Organization-Id), with the people inserted in SQL as an import would leave them: callable
 * (a phone, consent, midday in their zone) and unique by phone.
 */

/** A new organization, answered with its id; requests naming it go through any process. */
export async function createSite(admin: Client, name: string): Promise<string> {
  const created = await admin.post('/api/organizations/', { name });
  if (created.status !== 201) throw new Error(`organization: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id as string;
}

/**
 * A calling site: a recruiting trial, a published phone form of one question and an active prescreen voice agent,
 * and `people` candidates due a prescreen call.
 */
export async function callingSite(admin: Client, database: ClusterDatabase, people: number) {
  const organizationId = await createSite(admin, 'Cluster Calling Site');
  const header = { 'x-organization-id': organizationId };
  const trial = await admin.post('/api/trials/', { title: 'Asthma inhaler study' }, header);
  if (trial.status !== 201) throw new Error(`trial: ${trial.status} ${JSON.stringify(trial.body)}`);
  const recruiting = await admin.request('PATCH', `/api/trials/${trial.body.id}`, { status: 'recruiting' }, header);
  if (recruiting.status !== 200) throw new Error(`recruiting: ${recruiting.status} ${JSON.stringify(recruiting.body)}`);
  const [form] = await database.sql<{ id: string }>(
    `insert into prescreen_form (organization_id, trial_id, name, status, current_version, published_at)
     values ($1, $2, 'Asthma phone form', 'published', 1, now()) returning id`,
    [organizationId, trial.body.id],
  );
  const blocks = [
    {
      id: 'about',
      title: { en: 'About you' },
      questions: [
        {
          id: 'asthma',
          type: 'yes_no',
          wording: { phone: { en: 'Has a doctor told you that you have asthma?' }, chat: { en: 'Asthma?' } },
          required: true,
          criterionLinks: [],
        },
      ],
    },
  ];
  await database.sql(`insert into prescreen_form_version (organization_id, form_id, version, blocks) values ($1, $2, 1, $3)`, [
    organizationId,
    form.id,
    JSON.stringify(blocks),
  ]);
  const agent = await admin.post(
    '/api/voice-agents/',
    {
      name: 'Asthma phone screener',
      type: 'PRESCREEN',
      trialId: trial.body.id,
      prescreenFormId: form.id,
      firstMessage: { en: 'Hello, this is the research site calling about our asthma study.' },
      voicemailMessage: { en: 'Sorry we missed you.' },
    },
    header,
  );
  if (agent.status !== 201) throw new Error(`voice agent: ${agent.status} ${JSON.stringify(agent.body)}`);
  // Everyone is in the trial: a call uses the agent of the person's trial (decision 174).
  await database.sql(
    `with people as (
       insert into candidate (organization_id, first_name, last_name, phone, time_zone, consent_calls, custom_fields)
       select $1::uuid, 'Caller', 'Person ' || i, '+1313' || lpad(i::text, 7, '0'), $2, true, jsonb_build_object('asthma', i % 2 = 0)
       from generate_series(1, $3::int) as i
       returning id
     )
     insert into candidate_trial (candidate_id, trial_id, organization_id) select id, $4::uuid, $1::uuid from people`,
    [organizationId, zoneAtHour(12), people, trial.body.id],
  );
  return { organizationId, trialId: trial.body.id as string };
}

/** An outreach site: a one-step SMS sequence and `people` candidates who may be texted, all with `lastName`. */
export async function outreachSite(admin: Client, database: ClusterDatabase, people: number, lastName: string) {
  const organizationId = await createSite(admin, 'Cluster Outreach Site');
  const sequence = await admin.post(
    '/api/sequences/',
    { organizationId, name: 'Cluster outreach', steps: [{ key: 'hello', type: 'sms', message: { en: 'Hi {firstName}, a study may suit you.' } }] },
    { 'x-organization-id': organizationId },
  );
  if (sequence.status !== 201) throw new Error(`sequence: ${sequence.status} ${JSON.stringify(sequence.body)}`);
  await database.sql(
    `insert into candidate (organization_id, first_name, last_name, phone, time_zone, consent_sms, consent_sms_source, consent_sms_at)
     select $1::uuid, 'Texted', $2, '+1415' || lpad(i::text, 7, '0'), $3, true, 'cluster test', now()
     from generate_series(1, $4::int) as i`,
    [organizationId, lastName, zoneAtHour(12), people],
  );
  return { organizationId, sequenceId: sequence.body.id as string };
}
