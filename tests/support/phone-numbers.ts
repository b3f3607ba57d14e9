import { phoneNumber } from '../../src/server/db/schema';
import type { TestApp } from './test-app';

/**
 * Gives an organization a number in the phone-number registry, as an internal admin would (voice agents may
 * only call from their organization's numbers). Written straight to the database: tests of the registry's own
 * rules go through POST /api/phone-numbers (phone-numbers.int.test.ts).
 */
export async function assignTestNumber(t: TestApp, organizationId: string, number: string, values: Partial<typeof phoneNumber.$inferInsert> = {}) {
  const [row] = await t.deps.db
    .insert(phoneNumber)
    .values({ organizationId, number, provider: 'simulator', purpose: 'voice', ...values })
    .returning();
  return row;
}
