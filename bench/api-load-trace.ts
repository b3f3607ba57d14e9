/**
 * `BENCH_TRACE=<file> npm run bench:api-load ...`: the server child writes one line per request with its timestamps
 * (epoch ms), so a slow answer can be taken apart: when its connection was accepted, when the
 * request reached the app, how long it waited for and spent in PGlite's queue, whether its session was read from
 * the database, and whether the list counted. For finding where a tail comes from; no figure of the bench uses it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

interface RequestTrace {
  socket: number;
  /** The socket's accept time, and whether this is its first request. */
  acceptedAt: number;
  first: boolean;
  path: string;
  arrivedAt: number;
  answeredAt?: number;
  /** Database work of this request: queued (asked) and run (started, ended), summed. */
  jobs: number;
  queuedMs: number;
  runMs: number;
  /** The session was read from the database (cache miss). */
  sessionLoaded: boolean;
  /** Queue length (jobs asked, not finished) when this request arrived. */
  queueAtArrival: number;
}

/** Epoch ms with sub-millisecond precision: the client's timestamps (bench/api-load.ts) are on the same clock. */
export const now = () => performance.timeOrigin + performance.now();
const current = new AsyncLocalStorage<RequestTrace>();

export function installTrace(file: string, parts: { app: { fetch: (...args: any[]) => any }; sessions: object; client: object }) {
  const traces: RequestTrace[] = [];
  const sockets = new WeakMap<Socket, { id: number; acceptedAt: number; requests: number }>();
  let socketCount = 0;
  let inQueue = 0;

  const fetch = parts.app.fetch.bind(parts.app);
  const tracedFetch = async (request: Request, env: { incoming?: { socket: Socket } }) => {
    const socket = env?.incoming?.socket;
    const known = socket ? sockets.get(socket) : undefined;
    const trace: RequestTrace = {
      socket: known?.id ?? -1,
      acceptedAt: known?.acceptedAt ?? -1,
      first: known ? known.requests++ === 0 : false,
      path: new URL(request.url).pathname + (new URL(request.url).search.includes('search=') ? '?search' : ''),
      arrivedAt: now(),
      jobs: 0,
      queuedMs: 0,
      runMs: 0,
      sessionLoaded: false,
      queueAtArrival: inQueue,
    };
    traces.push(trace);
    const response = await current.run(trace, () => fetch(request, env));
    trace.answeredAt = now();
    return response;
  };

  // Every query, exec and transaction of the serialized client (a transaction is one job): when asked (the
  // client's method) and when run (PGlite's own method, called when the job's turn comes, in the asker's context).
  const client = parts.client as unknown as Record<string, (...args: any[]) => Promise<unknown>> & {
    pglite: Record<string, (...args: any[]) => Promise<unknown>>;
  };
  const asked = new WeakMap<RequestTrace, number[]>();
  for (const method of ['query', 'exec', 'transaction'] as const) {
    const ask = client[method].bind(client);
    client[method] = (...args: any[]) => {
      const trace = current.getStore();
      if (trace) asked.set(trace, [...(asked.get(trace) ?? []), now()]);
      inQueue++;
      return ask(...args).finally(() => inQueue--);
    };
    const run = client.pglite[method].bind(client.pglite);
    client.pglite[method] = (...args: any[]) => {
      const trace = current.getStore();
      const startedAt = now();
      const askedAt = trace ? asked.get(trace)?.shift() : undefined;
      if (trace) {
        trace.jobs++;
        if (askedAt !== undefined) trace.queuedMs += startedAt - askedAt;
      }
      return run(...args).finally(() => {
        if (trace) trace.runMs += now() - startedAt;
      });
    };
  }

  const sessions = parts.sessions as { load: (...args: any[]) => Promise<unknown> };
  const load = sessions.load.bind(sessions);
  sessions.load = (...args: any[]) => {
    const trace = current.getStore();
    if (trace) trace.sessionLoaded = true;
    return load(...args);
  };

  return {
    fetch: tracedFetch,
    attach(server: Server) {
      server.on('connection', (socket: Socket) => sockets.set(socket, { id: socketCount++, acceptedAt: now(), requests: 0 }));
    },
    write() {
      writeFileSync(file, traces.map((trace) => JSON.stringify(trace)).join('\n'));
    },
  };
}
