import type { Server } from 'node:http';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { DatabaseHandle } from '../db/client';

/**
 * Serves the app over HTTP and tells the database of each accepted connection, so PGlite's queue lets a burst of
 * new connections in quickly (db/client.ts `connectionAccepted`, decision 106). main.ts and bench/api-load.ts
 * both listen through here, so the bench measures the server as it runs.
 */
export function listenApp(
  fetch: (request: Request, env: any) => Response | Promise<Response>,
  database: Pick<DatabaseHandle, 'connectionAccepted'>,
  options: { port: number; hostname?: string },
  onListening?: (info: AddressInfo) => void,
): ServerType {
  const server = serve({ fetch, ...options }, onListening);
  (server as Server).on('connection', () => database.connectionAccepted());
  return server;
}
