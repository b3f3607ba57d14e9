/**
 * Demo data: `npm run seed`. Creates the demo organization ("Demo Research Site") with its trials, sites,
 * candidates and their funnel (src/server/features/demo/seed.ts, decision 033). Idempotent: when the demo
 * organization exists, nothing is done; `npm run seed -- --reset` deletes its data and seeds it again under the
 * same organization id. SEED_CANDIDATES sets the size (default 3,000). Uses DATABASE_URL or DATA_DIR like main.ts.
 */
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import {
  DEFAULT_DEMO_CANDIDATES,
  DEMO_ORGANIZATION_NAME,
  DEMO_ORGANIZATION_SLUG,
  resetDemoOrganization,
  seedDemoOrganization,
} from '../src/server/features/demo/seed';

export { DEMO_ORGANIZATION_NAME, DEMO_ORGANIZATION_SLUG };

export async function seed(options: { reset?: boolean } = {}) {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, databaseDirectUrl: config.databaseDirectUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const candidates = Number(process.env.SEED_CANDIDATES ?? DEFAULT_DEMO_CANDIDATES);
    return options.reset ? await resetDemoOrganization(database.db, { candidates }) : await seedDemoOrganization(database.db, { candidates });
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const reset = process.argv.includes('--reset');
  const result = await seed({ reset });
  const counts = result.counts;
  process.stdout.write(
    counts
      ? `${reset ? 'Reset' : 'Seeded'} "${DEMO_ORGANIZATION_NAME}" (${result.organizationId}): ${counts.trials} trials, ${counts.sites} sites, ${counts.candidates} candidates, ${counts.prescreenResults} prescreen results, ${counts.bookings} bookings, ${counts.calls} calls, ${counts.smsMessages} SMS, ${counts.chatConversations} chats, ${counts.activityEvents} activity events in ${Date.now() - started} ms\n`
      : `"${DEMO_ORGANIZATION_NAME}" already exists (${result.organizationId}); nothing to do (npm run seed -- --reset to start over)\n`,
  );
}
