import type { SignUpAnswer } from '../../contract/session';
import type { AppDeps } from '../http/context';
import { sentMailLink } from './auth';

const sleep = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

export interface SignUpBody {
  email?: unknown;
  password?: unknown;
  invitationToken?: unknown;
}

/**
 * Sign-up (decision 121). better-auth creates the account, or for a registered email hashes the password all the same
 * and mails the owner; either way it signs no one in and answers alike, and so does this: "check your email", with
 * the mail's link when there is no SMTP. An invitation's holder proved the address, so they are signed in at once.
 */
export async function signUp(deps: Pick<AppDeps, 'auth' | 'config' | 'mail' | 'sessions'>, request: Request, body: SignUpBody): Promise<Response> {
  const arrived = performance.now();
  const sent: { link?: string } = {};
  const response = await sentMailLink.run(sent, () => deps.auth.handler(request));
  const invited = typeof body.invitationToken === 'string' && typeof body.email === 'string' && typeof body.password === 'string';
  // A new account costs a few more writes than a registered email's mail: no answer comes before the floor.
  if (!invited) await sleep(arrived + deps.config.signUpMinMs - performance.now());
  if (response.status !== 200) return response;
  deps.sessions.organizationsChanged();

  if (invited) {
    return deps.auth.api.signInEmail({ body: { email: body.email as string, password: body.password as string }, headers: request.headers, asResponse: true });
  }
  const answer: SignUpAnswer = { status: 'check-your-email' };
  if (deps.mail.kind === 'outbox' && sent.link) answer.simulatedMailLink = sent.link;
  return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
