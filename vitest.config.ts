import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Tiers, named by folder and suffix: *.test.ts (unit), *.int.test.ts (real database through the real HTTP app),
// cluster/*.test.ts (three app processes on one PostgreSQL), e2e/*.spec.ts (the built app in Chromium).
export default defineConfig({
  test: {
    // Every core: vitest's default in a run leaves one idle (cores - 1), which on CI's 2-core machine ran the unit and
    // integration tiers one file at a time. A test file's app, and PGlite with it, is one thread, so a second worker
    // nearly halves those tiers (decision 289). The cluster and browser tiers keep their own one-file-at-a-time.
    maxWorkers: availableParallelism(),
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
          isolate: false,
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
