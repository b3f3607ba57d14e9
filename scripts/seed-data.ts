/** The demo data moved into the server (the admin area can reset it): src/server/features/demo/seed-data.ts. */
export * from '../src/server/features/demo/seed-data';
