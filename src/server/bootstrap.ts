import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { INTERNAL_ORGANIZATION_SLUG } from '../contract/organizations';
import type { Auth } from './auth/auth';
import type { AppConfig } from './config';
import type { Database } from './db/client';
import { account, user } from './db/schema';
import { recordAudit } from './audit';
import { findOrganizationBySlug, insertOrganization } from './tenancy/organizations';
import { insertMembership } from './tenancy/users';

export interface BootstrapResult {
  organizationId: string;
  /** Set only when this start created the first admin. */
  createdAdmin?: { email: string; generatedPassword?: string };
}

/**
 * On an empty database: the internal organization "Cohortly" (slug cohortly) and a first internal admin
 * from ADMIN_EMAIL / ADMIN_PASSWORD, or with a generated password. An advisory lock makes concurrent
 * starts of several app processes create them once.
 */
export async function bootstrap(db: Database, auth: Auth, config: AppConfig): Promise<BootstrapResult> {
  const context = await auth.$context;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(4242001)`);
    const internal =
      (await findOrganizationBySlug(tx, INTERNAL_ORGANIZATION_SLUG)) ?? (await insertOrganization(tx, { name: 'Cohortly', slug: INTERNAL_ORGANIZATION_SLUG }));

    const [existingAdmin] = await tx.select({ id: user.id }).from(user).where(eq(user.isAdmin, true)).limit(1);
    if (existingAdmin) return { organizationId: internal.id };

    const email = (config.adminEmail ?? 'admin@cohortly.local').toLowerCase();
    // Refuse at start what sign-in would refuse later: an admin who could never sign in.
    if (!z.email().safeParse(email).success) throw new Error('ADMIN_EMAIL is not a valid email address');
    const generatedPassword = config.adminPassword ? undefined : randomBytes(12).toString('base64url');
    const password = config.adminPassword ?? generatedPassword!;
    const id = crypto.randomUUID();
    await tx.insert(user).values({ id, name: 'Cohortly Admin', email, emailVerified: true, isAdmin: true });
    await tx.insert(account).values({
      id: crypto.randomUUID(),
      userId: id,
      accountId: id,
      providerId: 'credential',
      password: await context.password.hash(password),
    });
    await insertMembership(tx, { organizationId: internal.id, userId: id, role: 'owner' });
    await recordAudit(tx, { organizationId: internal.id, actorUserId: null, action: 'user.bootstrap-admin', entityType: 'user', entityId: id });
    return { organizationId: internal.id, createdAdmin: { email, generatedPassword } };
  });
}
