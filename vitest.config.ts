import { defineConfig } from 'vitest/config';

// Tiers, named by folder and suffix: *.test.ts (unit), *.int.test.ts (real database through the real HTTP app),
// cluster/*.test.ts (three app processes on one PostgreSQL), e2e/*.spec.ts (the built app in Chromium).
export default defineConfig({
  test: {
    projects: [
      // Unit tests are CPU-bound; a shared CI machine can be several times slower than a quiet one.
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], env: { NODE_ENV: 'test' }, testTimeout: 20_000 } },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.int.test.ts'],
          env: { NODE_ENV: 'test' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: ['tests/support/fail-on-console-error.ts'],
        },
      },
      {
        // Three real app processes on one PostgreSQL (tests/cluster/support.ts): start-up, kill -9 takeovers, shared truth.
        test: {
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.spec.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
