import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type DatabaseHandle } from '../../src/server/db/client';

// PGlite's one connection is a queue in the server's own thread (db/client.ts). What a new connection waits for is
// the event loop coming back to accept it; these check when queued statements let the loop in (decisions 093, 106).

let database: DatabaseHandle;
// Starting PGlite's WebAssembly takes seconds on a busy machine.
beforeAll(async () => {
  database = await openPglite('memory://');
  // The first statements after start run cold (WebAssembly not yet compiled hot) and can outlast a slice on their own.
  for (let warm = 0; warm < 50; warm++) await database.db.execute(sql`select ${warm}`);
}, 60_000);
afterAll(() => database?.close());

/** Two statements queued inside a slice, and an event-loop turn asked for at the same moment: which comes first. */
async function order(): Promise<string[]> {
  await database.db.execute(sql`select 1`); // the slice starts here
  const seen: string[] = [];
  const first = database.db.execute(sql`select 2`).then(() => seen.push('statement 2'));
  const second = database.db.execute(sql`select 3`).then(() => seen.push('statement 3'));
  setImmediate(() => seen.push('event-loop turn'));
  await Promise.all([first, second]);
  await new Promise((resolve) => setImmediate(resolve));
  return seen;
}

describe('PGlite queue', () => {
  it('runs queued statements back to back within its slice', async () => {
    // A slice is 10 ms of wall time: a pause of the machine (a collection, another process, a loaded full test run)
    // can end one early, so the order is asked up to twenty times, a short rest between; a queue that always yields
    // fails every time.
    let seen: string[] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      seen = await order();
      if (seen[0] === 'statement 2') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(seen).toEqual(['statement 2', 'statement 3', 'event-loop turn']);
  });

  it('lets the event loop in before each statement while connections are being accepted', async () => {
    database.connectionAccepted();
    expect(await order()).toEqual(['event-loop turn', 'statement 2', 'statement 3']);
  });
});
