// Runs the service: opens the catalogue and the access store, listens, and stops
// cleanly. Guarantees: the catalogue is valid before the port opens; a replaced
// catalogue file is picked up without downtime (src/ops/catalogue-reloader.ts); on
// stop, no new connections are accepted, every request reaching an open connection is
// answered and no keep-alive client sees a reset (src/ops/connection-drain.ts), then the
// stores close. The developer dashboard (src/dashboard) is served under /dashboard on the
// same port, or on a port of its own, when asked for.
import type { Server } from 'node:http';
import pino, { type Logger } from 'pino';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { openAccess, openAccounts } from './access';
import { systemClock, type AccessControl, type Clock } from './access/types';
import { buildApp } from './http/app';
import { fastifyTrust, type TrustProxy } from './http/trust-proxy';
import type { CatalogueRef } from './catalogue/read-model';
import { CatalogueReloader } from './ops/catalogue-reloader';
import { LabelPool, defaultLabelPool, type LabelPoolOptions } from './catalogue/label-pool';
import { ConnectionDrain } from './ops/connection-drain';
import { installSecurityHeaders } from './http/security-headers';
import { dashboard, PREFIX, UsageAlerts, type DashboardSettings, type StripeBilling } from './dashboard';
import { Mailer } from './mail';
import { LogBlocks } from './ops/log-blocks';

export interface ServeOptions {
  catalogue: string;
  host: string;
  port: number;
  access?: string;
  plans?: string;
  /** Serve Prometheus metrics on this port (none when undefined). */
  metricsPort?: number;
  metricsHost?: string;
  clock?: Clock;
  logger?: Logger;
  /** Serve the developer dashboard with these settings (none when undefined). */
  dashboard?: DashboardSettings;
  /** Serve the dashboard on this port instead of the API's (`--dashboard-port`). */
  dashboardPort?: number;
  /** Label analysis threads and queue (`--label-threads`, `--label-queue`); default defaultLabelPool(). */
  labelPool?: Partial<LabelPoolOptions>;
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Where the dashboard's pages are (http://HOST:PORT/dashboard) when it is served. */
  dashboardUrl?: string;
  /** http://HOST:PORT/metrics when metrics are served. */
  metricsUrl?: string;
  catalogue: CatalogueRef;
  reloader: CatalogueReloader;
  access: AccessControl;
  /** The dashboard's mail (when the dashboard is served). */
  mailer?: Mailer;
  /** Stripe mode's billing (when the dashboard is served with settings.stripe). */
  billing?: StripeBilling;
  /** The usage alerts' check (when the dashboard is served). */
  alerts?: UsageAlerts;
  close(): Promise<void>;
  /** Resolves once every log line written so far has reached the log's destination (see flushLog). */
  flushLog(): Promise<void>;
}

/** The secret is never logged: x-api-key is redacted wherever headers appear. */
export const REDACT = [
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  'headers.cookie',
  '*.headers.cookie',
  'headers["set-cookie"]',
  '*.headers["set-cookie"]',
  'body',
  '*.body',
];

/**
 * Errors are logged without `rawPacket` (the unparsed bytes of a request Node could not
 * parse, API key included); src/http/raw-answers.ts does not log those errors whole either.
 */
function errWithoutBytes(err: Error): Record<string, unknown> {
  const out = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  delete out.rawPacket;
  return out;
}

/**
 * JSON lines on stderr (or `fd`), written asynchronously and in blocks: lines are gathered until
 * LOG_BLOCK characters are waiting (or a second has passed), then written with one write(),
 * rather than one write() per request (src/ops/log-blocks.ts). What is still held when the
 * process exits is written then (a stop, or a crash by an uncaught exception), and a
 * graceful stop first waits for every write in progress (flushLog); only a process killed
 * outright (SIGKILL, the OOM killer) can lose the lines of its last second.
 */
export function defaultLogger(fd = 2): Logger {
  const destination = new LogBlocks(pino.destination({ dest: fd, sync: false, minLength: LOG_BLOCK }), fd, LOG_BLOCK);
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // ended by pino at exit: nothing left to write
    }
  }, LOG_FLUSH_MS).unref();
  return pino(
    { level: process.env.LOG_LEVEL ?? 'info', redact: REDACT, serializers: { err: errWithoutBytes } },
    destination,
  );
}
/** 16,000 characters: about 100 request lines a write (SonicBoom writes at most 16 KiB at once). */
const LOG_BLOCK = 16_000;
const LOG_FLUSH_MS = 1000;

/**
 * Resolves once every line the logger has been given is written: its block sent and any
 * write still in progress finished. pino's exit hook writes only what is queued, so a block
 * whose write was in progress when the process exited was lost (or came after later lines);
 * a graceful stop waits for this before exiting.
 */
export function flushLog(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    try {
      logger.flush(() => resolve());
    } catch {
      resolve(); // a destination already ended, or none that buffers
    }
  });
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const logger = opts.logger ?? defaultLogger();
  const labels = new LabelPool({ ...defaultLabelPool(), ...opts.labelPool });
  const reloader = new CatalogueReloader(opts.catalogue, logger, (outcome, c) => {
    metrics?.reload(outcome);
    if (outcome === 'swapped') labels.announce(c); // the worker threads make its join tables, not this one
  });
  const ref = reloader.ref;
  labels.announce(ref.current);
  const metrics = opts.metricsPort === undefined ? undefined : new (await import('./ops/metrics')).Metrics(ref);
  const access = await openAccess(opts.access, {
    plansFile: opts.plans,
    clock: opts.clock,
    onStoreError: (err) => {
      metrics?.storeError();
      logger.warn({ err: String(err) }, 'access store error');
    },
  });
  const settings = opts.dashboard;
  const accounts =
    settings === undefined
      ? undefined
      : await openAccounts(opts.access, {
          plansFile: opts.plans,
          clock: opts.clock,
          onStoreError: (err) => logger.warn({ err: String(err) }, 'access store error (dashboard)'),
        });
  const mailer =
    accounts === undefined
      ? undefined
      : new Mailer(accounts.outbox, settings?.mail ?? {}, opts.clock ?? systemClock, (what, err) =>
          logger.warn({ err: String(err) }, what),
        );
  const billing =
    accounts === undefined || settings?.stripe === undefined
      ? undefined
      : new (await import('./dashboard/stripe')).StripeBilling(
          settings.stripe,
          accounts,
          mailer!,
          () => settings.billingText,
        );
  const alerts = accounts === undefined ? undefined : new UsageAlerts(accounts, mailer!);
  const pages =
    accounts === undefined
      ? undefined
      : async (app: FastifyInstance) =>
          void (await app.register(dashboard, {
            prefix: PREFIX,
            accounts,
            access,
            catalogue: ref,
            labels,
            settings: settings!,
            mailer: mailer!,
            billing,
            alerts,
          }));
  const own = opts.dashboardPort !== undefined;
  const app = await buildApp({
    catalogue: ref,
    labels,
    access,
    logger,
    metrics,
    catalogueProblem: () => reloader.problem,
    trustProxy: settings?.trustProxy,
    dashboardPlace: () =>
      accounts === undefined ? undefined : own ? { port: portOf(dashboardApp!.server) } : { path: PREFIX },
    extend: own ? undefined : pages,
  });
  const dashboardApp = own && pages ? await dashboardServer(logger, settings!.trustProxy, pages) : undefined;
  const connections = new ConnectionDrain(app);
  let metricsServer: Server | undefined;
  try {
    await app.listen({ host: opts.host, port: opts.port });
    await dashboardApp?.listen({ host: opts.host, port: opts.dashboardPort });
    if (metrics) metricsServer = await metrics.listen(opts.metricsHost ?? '127.0.0.1', opts.metricsPort!);
  } catch (err) {
    await app.close();
    await dashboardApp?.close();
    await access.close();
    await accounts?.close();
    await labels.close();
    ref.current.close();
    throw err;
  }
  reloader.watch();
  const dashboardUrl = accounts && urlOf((dashboardApp ?? app).server, opts.host) + PREFIX;
  if (dashboardUrl) mailer?.setDashboardUrl(settings?.publicUrl ? settings.publicUrl + PREFIX : dashboardUrl);
  let closing: Promise<void> | null = null;
  return {
    app,
    url: urlOf(app.server, opts.host),
    dashboardUrl,
    mailer,
    billing,
    alerts,
    metricsUrl: metricsServer && urlOf(metricsServer, opts.metricsHost ?? '127.0.0.1') + '/metrics',
    catalogue: ref,
    reloader,
    access,
    flushLog: () => flushLog(logger),
    close: () =>
      (closing ??= (async () => {
        reloader.close();
        metricsServer?.close();
        metricsServer?.closeAllConnections();
        await connections.drain();
        await app.close();
        await dashboardApp?.close();
        await access.close();
        mailer?.close();
        await accounts?.close();
        await labels.close();
        ref.current.close();
      })()),
  };
}

/** The dashboard on a port of its own: the same security headers and pages, no API. */
async function dashboardServer(
  logger: Logger,
  trustProxy: TrustProxy | true,
  pages: (app: FastifyInstance) => Promise<void>,
): Promise<FastifyInstance> {
  const log: FastifyBaseLogger = logger; // fastify's view of the pino logger
  const app = Fastify({ loggerInstance: log, trustProxy: fastifyTrust(trustProxy), disableRequestLogging: true });
  installSecurityHeaders(app);
  await pages(app);
  return app;
}

function portOf(server: Server): number {
  const addr = server.address();
  return typeof addr === 'object' && addr ? addr.port : 0;
}

function urlOf(server: Server, host: string): string {
  const port = portOf(server);
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
