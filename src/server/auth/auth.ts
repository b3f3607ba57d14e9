import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { AsyncLocalStorage } from 'node:async_hooks';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { customSession } from 'better-auth/plugins';
import { SignUpFormSchema } from '../../contract/session';
import type { AppConfig } from '../config';
import { CLIENT_ADDRESS_HEADER } from './client-address';
import { trustedOrigins } from './origins';
import { passwordProblem } from './password-policy';
import type { Database } from '../db/client';
import * as schema from '../db/schema';
import type { Logger } from '../logger';
import type { MailPort } from '../integrations/mail/mail';
import { recordAudit } from '../audit';
import { findFirstOrganization, insertOrganization, slugify, uniqueSlug } from '../tenancy/organizations';
import {
  countMembers,
  countOwners,
  findMember,
  findMembership,
  findOpenInvitation,
  findUserByEmail,
  insertMembership,
  markInvitationAccepted,
} from '../tenancy/users';

export const AUTH_BASE_PATH = '/api/auth';

interface AuthDeps {
  config: AppConfig;
  db: Database;
  mail: MailPort;
  logger: Logger;
}

/** Extra fields the sign-up form sends beside better-auth's own. */
interface SignUpExtras {
  organizationName?: string;
  invitationToken?: string;
}

/**
 * The link of the mail a sign-up sent (verification, or "you already have an account"), kept for the request that
 * caused it: without SMTP the "check your email" screen shows it, whichever mail it was (auth/sign-up.ts, decision 121).
 */
export const sentMailLink = new AsyncLocalStorage<{ link?: string }>();

const refusePassword = (password: unknown, person: { email?: string | null; name?: string | null }) => {
  const problem = typeof password === 'string' ? passwordProblem(password, person) : null;
  if (problem) throw new APIError('BAD_REQUEST', { message: problem, code: 'WEAK_PASSWORD' });
};

/**
 * better-auth, mounted at /api/auth: email and password, sessions in the database, and get-session
 * extended with the user's organization and isAdmin (docs/product-spec.md §7). Sign-up either creates the user's
 * research site (organizationName) or joins an inviting organization (invitationToken).
 */
export function createAuth({ config, db, mail, logger }: AuthDeps) {
  return betterAuth({
    appName: 'Cohortly',
    baseURL: config.publicBaseUrl,
    basePath: AUTH_BASE_PATH,
    secret: config.authSecret,
    trustedOrigins: trustedOrigins(config),
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: schema.user, session: schema.session, account: schema.account, verification: schema.verification, rateLimit: schema.rateLimit },
    }),
    // A sign-up answers alike for a new and a registered email (decision 121): better-auth then hashes the password
    // either way and never signs in at sign-up; the new address signs in by its verification link.
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 10,
      maxPasswordLength: 128,
      autoSignIn: false,
      requireEmailVerification: true,
      onExistingUserSignUp: async ({ user }) => {
        const link = `${config.publicBaseUrl}/sign-in`;
        const store = sentMailLink.getStore();
        if (store) store.link = link;
        await mail.send({
          to: user.email,
          subject: 'Someone tried to create a Cohortly account with your email',
          text: `Hello,\n\nSomeone, perhaps you, tried to create a new Cohortly account with this email address. You already have an account: sign in here:\n${link}\n\nIf you have forgotten your password, ask an owner of your organization or Cohortly support to set a new one. If it was not you, nothing has changed and you can ignore this message.`,
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user, url }) => {
        const store = sentMailLink.getStore();
        if (store) store.link = url;
        await mail.send({
          to: user.email,
          subject: 'Confirm your email for Cohortly',
          text: `Hello,\n\nConfirm your email address for Cohortly by opening this link; it signs you in:\n${url}\n\nIf you did not sign up, ignore this message.`,
        });
      },
    },
    user: {
      additionalFields: { isAdmin: { type: 'boolean', required: false, defaultValue: false, input: false } },
      changeEmail: { enabled: true, updateEmailWithoutVerification: true },
      deleteUser: {
        enabled: true,
        beforeDelete: async (user) => {
          // An organization must keep an owner while it has other staff.
          const membership = await findMember(db, user.id);
          if (membership?.role !== 'owner') return;
          const [owners, staff] = await Promise.all([countOwners(db, membership.organizationId), countMembers(db, membership.organizationId)]);
          if (owners === 1 && staff > 1) {
            throw new APIError('BAD_REQUEST', {
              message: 'You are the only owner of your organization: make a colleague owner before deleting your account',
            });
          }
        },
        afterDelete: async (user) => {
          await recordAudit(db, { organizationId: null, actorUserId: user.id, action: 'user.delete-account', entityType: 'user', entityId: user.id });
        },
      },
    },
    // The cookie lives as long as the absolute lifetime; the row's expires_at is the idle deadline, set at sign-in
    // (databaseHooks.session below) and moved by user activity in sessions.ts, never by reading the session.
    session: { expiresIn: Math.round(config.session.maxHours * 3600), disableSessionRefresh: true },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 300,
      customRules: {
        '/sign-in/email': { window: config.signInRateLimit.windowSeconds, max: config.signInRateLimit.max },
        '/sign-up/email': { window: 60, max: 10 },
        // Reading one's own session guesses nothing (the token is 32 random bytes) and is served from the
        // session cache; counting it cost a database write per call and 429'd busy staff (issue 14's load run).
        '/get-session': false,
      },
    },
    advanced: {
      // Secure cookies wherever the app is served over https (production is); a plain-http local start
      // (npm start on localhost) still gets a working session.
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.secureCookies },
      // The client address as app.ts resolved it from the socket (and TRUSTED_PROXIES); a client cannot set it.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    logger: { level: 'error', log: (level, message) => logger[level]({ source: 'better-auth' }, message) },
    // A refused sign-in or a bad form is a 4xx for the user, not a server error: log it quietly, without details.
    onAPIError: {
      onError: (error) => {
        const status = (error as { status?: string }).status;
        if (status === 'INTERNAL_SERVER_ERROR' || !status) logger.error({ errorName: (error as Error)?.name, source: 'better-auth' }, 'auth error');
        else logger.debug({ status, source: 'better-auth' }, 'auth request refused');
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/change-password') {
          const session = await getSessionFromCtx(ctx);
          refusePassword(ctx.body?.newPassword, { email: session?.user.email, name: session?.user.name });
          return;
        }
        if (ctx.path !== '/sign-up/email') return;
        const parsed = SignUpFormSchema.safeParse(ctx.body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new APIError('BAD_REQUEST', { message: `${issue.path.join('.')}: ${issue.message}` });
        }
        const { invitationToken, organizationName, email, name, password } = parsed.data;
        if (invitationToken) {
          const open = await findOpenInvitation(db, invitationToken);
          if (!open) throw new APIError('BAD_REQUEST', { message: 'This invitation link is invalid, used or expired' });
          if (open.invitation.email !== email.toLowerCase()) {
            throw new APIError('BAD_REQUEST', { message: 'Sign up with the email address the invitation was sent to' });
          }
          // The invitation's holder proved the address: telling them it has an account reveals nothing new.
          if (await findUserByEmail(db, email)) {
            throw new APIError('UNPROCESSABLE_ENTITY', { message: 'This email already has a Cohortly account: sign in instead', code: 'USER_ALREADY_EXISTS' });
          }
        } else if (!organizationName || organizationName.length < 2) {
          throw new APIError('BAD_REQUEST', { message: 'organizationName: Enter the name of your research site' });
        }
        refusePassword(password, { email, name });
      }),
    },
    databaseHooks: {
      session: {
        create: {
          // A new session first expires after the idle timeout (SESSION_IDLE_MINUTES).
          before: async (session) => ({
            data: { ...session, expiresAt: new Date(Date.now() + Math.min(config.session.idleMinutes * 60_000, config.session.maxHours * 3_600_000)) },
          }),
        },
      },
      user: {
        create: {
          // An invitation was sent to this address and its token checked above: the address is proven.
          before: async (user, ctx) => {
            if (ctx?.path === '/sign-up/email' && (ctx.body as SignUpExtras).invitationToken) return { data: { ...user, emailVerified: true } };
          },
          after: async (user, ctx) => {
            if (ctx?.path !== '/sign-up/email') return;
            const extras = ctx.body as SignUpExtras;
            await db.transaction(async (tx) => {
              if (extras.invitationToken) {
                const open = await findOpenInvitation(tx, extras.invitationToken);
                if (!open) throw new APIError('BAD_REQUEST', { message: 'This invitation link is invalid, used or expired' });
                await insertMembership(tx, { organizationId: open.invitation.organizationId, userId: user.id, role: open.invitation.role });
                await markInvitationAccepted(tx, open.invitation.id);
                await recordAudit(tx, {
                  organizationId: open.invitation.organizationId,
                  actorUserId: user.id,
                  action: 'member.join',
                  entityType: 'user',
                  entityId: user.id,
                  changes: { role: open.invitation.role, invitationId: open.invitation.id },
                });
                return;
              }
              const name = extras.organizationName!.trim();
              const organization = await insertOrganization(tx, { name, slug: await uniqueSlug(tx, slugify(name)) });
              await insertMembership(tx, { organizationId: organization.id, userId: user.id, role: 'owner' });
              await recordAudit(tx, {
                organizationId: organization.id,
                actorUserId: user.id,
                action: 'organization.create',
                entityType: 'organization',
                entityId: organization.id,
                changes: { via: 'sign-up' },
              });
            });
          },
        },
      },
    },
    // No bearer() plugin: a session is its httpOnly cookie only, so no page script can hold one (decision 120).
    plugins: [
      customSession(async ({ user, session }) => {
        const membership = await findMembership(db, user.id);
        const organization = membership
          ? {
              id: membership.organization.id,
              slug: membership.organization.slug,
              publicId: membership.organization.publicId,
              name: membership.organization.name,
            }
          : null;
        const isAdmin = Boolean((user as { isAdmin?: boolean }).isAdmin);
        // An admin's default organization comes with the session, so the web app opens a page without waiting for
        // the organization list (decision 181); the list's order decides it, as the switcher shows it.
        const defaultOrganization = isAdmin ? ((await findFirstOrganization(db)) ?? null) : null;
        // The session token stays in its httpOnly cookie: page scripts have no use for it.
        const { token: _token, ...safeSession } = session;
        return { session: safeSession, user: { ...user, isAdmin }, organization, role: membership?.role ?? null, isAdmin, defaultOrganization };
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
