import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type Actor, type SignedUp, type TestApp } from '../support/test-app';

/**
 * The mail outbox (issue 32, item 8): with no mail server configured, an invitation is kept, not sent, and an
 * internal admin finds it on the outbox screen's API: the address masked in the list, the mail with its link in
 * full when asked for.
 */

let t: TestApp;
let admin: Actor;
let owner: SignedUp;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signInAdmin();
  owner = await t.signUp({ organizationName: 'Outbox Trials' });
});
afterAll(() => t?.close());

describe('mail outbox', () => {
  it('lists kept mail newest first with the address masked; one mail in full has the invitation link', async () => {
    const email = uniqueEmail('invitee');
    const invited = await owner.actor.post('/api/users/', { organizationId: owner.organizationId, email, role: 'coordinator', mode: 'invite' });
    expect(invited.status).toBe(201);

    const list = await admin.get('/api/mail-outbox');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.delivery).toBe('outbox');
    const newest = list.body.messages[0];
    expect(newest).toEqual({
      id: expect.any(String),
      to: `${email[0]}•••@${email.split('@')[1]}`,
      subject: 'You are invited to Outbox Trials on Cohortly',
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(list.body)).not.toContain(email);
    expect(JSON.stringify(list.body)).not.toContain(invited.body.invitationUrl);

    const one = await admin.get(`/api/mail-outbox/${newest.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: newest.id, to: email, subject: 'You are invited to Outbox Trials on Cohortly' });
    expect(one.body.body).toContain(invited.body.invitationUrl);
    // The role in words, not its code.
    expect(one.body.body).toContain('as a coordinator');
  });

  it('keeps to the limit asked and refuses a bad one', async () => {
    expect((await admin.get('/api/mail-outbox?limit=1')).body.messages).toHaveLength(1);
    expect((await admin.get('/api/mail-outbox?limit=0')).status).toBe(400);
  });

  it('answers 404 for a mail that does not exist', async () => {
    expect((await admin.get('/api/mail-outbox/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await admin.get('/api/mail-outbox/not-an-id')).status).toBe(404);
  });
});

describe('mail outbox with a mail server', () => {
  it('says mail goes through the server', async () => {
    const smtp = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const answer = await (await smtp.signInAdmin()).get('/api/mail-outbox');
      expect(answer.status).toBe(200);
      expect(answer.body.delivery).toBe('smtp');
    } finally {
      await smtp.close();
    }
  });
});
