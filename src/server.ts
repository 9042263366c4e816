// Runs the service: opens the catalogue and the access store, listens, and stops
// cleanly. Guarantees: the catalogue is valid before the port opens; on stop, no new
// connections are accepted, in-flight requests finish, then the stores close.
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { Catalogue } from './catalogue/read-model';
import { openAccess } from './access';
import type { AccessControl, Clock } from './access/types';
import { buildApp, type CatalogueRef } from './http/app';

export interface ServeOptions {
  catalogue: string;
  host: string;
  port: number;
  access?: string;
  plans?: string;
  clock?: Clock;
  logger?: Logger;
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  catalogue: CatalogueRef;
  access: AccessControl;
  close(): Promise<void>;
}

export function defaultLogger(): Logger {
  return pino({ level: process.env.LOG_LEVEL ?? 'info', redact: ['req.headers["x-api-key"]', 'headers["x-api-key"]'] }, pino.destination(2));
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const logger = opts.logger ?? defaultLogger();
  const ref: CatalogueRef = { current: Catalogue.open(opts.catalogue) };
  const access = await openAccess(opts.access, {
    plansFile: opts.plans, clock: opts.clock,
    onStoreError: (err) => logger.warn({ err: String(err) }, 'access store error'),
  });
  const app = await buildApp({ catalogue: ref, access, logger });
  await app.listen({ host: opts.host, port: opts.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  let closing: Promise<void> | null = null;
  return {
    app, url: `http://${host}:${port}`, catalogue: ref, access,
    close: () => (closing ??= (async () => {
      await app.close();
      await access.close();
      ref.current.close();
    })()),
  };
}
