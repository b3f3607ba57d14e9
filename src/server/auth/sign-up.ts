import type { SignUpAnswer } from '../../contract/session';
import type { AppDeps } from '../http/context';
import { sentMailLink } from './auth';

const sleep = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * How long this process's recent new-account sign-ups took (ms, the last 21). Both answers, a new account's and a
 * registered email's, wait for their 75th percentile too, so that on a loaded server, where both paths outrun
 * SIGN_UP_MIN_MS, most answers of either kind leave at that same moment and the new account's extra writes do not
 * show (decision 121). Waiting on one path only moved the difference: a registered email waited for the new
 * accounts' median on top of its own time and became the slower one (bench/sign-up-enumeration.ts on a loaded machine: ratio 1.12). A
 * timing estimate only: nothing depends on it being shared.
 */
const recentNewAccounts: number[] = [];
const RECENT = 21;
function typicalNewAccountMs(): number {
  if (recentNewAccounts.length === 0) return 0;
  const sorted = [...recentNewAccounts].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.75)];
}

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
  // A new account costs a few more writes than a registered email's mail: no answer comes before the floor, nor
  // before a new account's typical time.
  if (!invited && deps.config.signUpMinMs > 0) {
    const took = performance.now() - arrived;
    const newAccount = response.status === 200 && sent.link?.includes('/verify-email') === true;
    if (newAccount) {
      recentNewAccounts.push(took);
      if (recentNewAccounts.length > RECENT) recentNewAccounts.shift();
    }
    const floor = Math.max(deps.config.signUpMinMs, typicalNewAccountMs());
    await sleep(floor - took);
  }
  if (response.status !== 200) return response;
  deps.sessions.organizationsChanged();

  if (invited) {
    return deps.auth.api.signInEmail({ body: { email: body.email as string, password: body.password as string }, headers: request.headers, asResponse: true });
  }
  const answer: SignUpAnswer = { status: 'check-your-email' };
  if (deps.mail.kind === 'outbox' && sent.link) answer.simulatedMailLink = sent.link;
  return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
