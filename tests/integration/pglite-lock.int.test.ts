import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/server/db/client';

/** The embedded database belongs to one process: a second open of the same directory is refused clearly. */

const root = mkdtempSync(path.join(os.tmpdir(), 'cohortly-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the PGlite data directory lock', () => {
  it('refuses a second open while the first is open, and allows it after close', async () => {
    const dir = path.join(root, 'pglite');
    const first = await openPglite(dir);
    await expect(openPglite(dir)).rejects.toThrow(`Another Cohortly process (pid ${process.pid}) is using the database in ${dir}`);
    await first.close();
    const again = await openPglite(dir);
    await again.close();
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const dir = path.join(root, 'crashed');
    writeFileSync(`${dir}.lock`, '2147483646');
    const handle = await openPglite(dir);
    await handle.close();
  });
});
