// Prometheus metrics, served on their own (non-public) port. Guarantees: every finished
// request costs one histogram observation labelled by route pattern (never the raw URL),
// method and status; every error answer the error handler sends with a refusal status
// (400, 402, 403, 413, 415, 429, 503) is counted by status and reason (the handler passes
// them to refused(); 404s and 500s are not refusals), store errors and catalogue reloads
// are counted, and the served catalogue's build date is a gauge.
import * as http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CatalogueRef } from '../catalogue/read-model';
import type { ApiError } from '../shared/errors';
import type { ReloadOutcome } from './catalogue-reloader';

const REFUSED = new Set([400, 402, 403, 413, 415, 429, 503]);

export class Metrics {
  readonly registry = new Registry();
  private readonly duration: Histogram<'route' | 'method' | 'status'>;
  private readonly children = new Map<string, { observe(v: number): void }>();
  private readonly refusals: Counter<'status' | 'reason'>;
  private readonly storeErrors: Counter;
  private readonly reloads: Counter<'outcome'>;

  constructor(catalogue: CatalogueRef) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request received to response sent; _count is the request count',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.refusals = new Counter({
      name: 'http_refusals_total',
      help: 'Requests refused (400, 402, 403, 413, 415, 429, 503) by status and reason',
      labelNames: ['status', 'reason'],
      registers,
    });
    this.storeErrors = new Counter({
      name: 'access_store_errors_total',
      help: 'Failures of the access store (each answered 503)',
      registers,
    });
    this.reloads = new Counter({
      name: 'catalogue_reloads_total',
      help: 'Catalogue reload attempts by outcome (swapped or refused)',
      labelNames: ['outcome'],
      registers,
    });
    new Gauge({
      name: 'catalogue_built_at_seconds',
      help: 'Build date of the served catalogue as unix time (absent when the build did not record it)',
      registers,
      collect() {
        this.reset();
        const t = Date.parse(catalogue.current.builtAt + 'T00:00:00Z');
        if (!Number.isNaN(t)) this.set(t / 1000);
      },
    });
    new Gauge({
      name: 'catalogue_products',
      help: 'Products in the served catalogue',
      registers,
      collect() {
        this.set(catalogue.current.products);
      },
    });
    new Gauge({
      name: 'catalogue_ingredients',
      help: 'Ingredients in the served catalogue',
      registers,
      collect() {
        this.set(catalogue.current.ingredients);
      },
    });
  }

  /** Adds the per-request observation to an app (before its routes). */
  install(app: FastifyInstance): void {
    app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const route = req.routeOptions.url ?? 'unmatched';
      const key = `${req.method} ${reply.statusCode} ${route}`;
      let child = this.children.get(key);
      if (child === undefined) {
        child = this.duration.labels(route, req.method, String(reply.statusCode));
        this.children.set(key, child);
      }
      child.observe(reply.elapsedTime / 1000);
      done();
    });
  }

  /** Counts an error answer by status and reason when it is a refusal (called by the app's error handler). */
  refused(e: Pick<ApiError, 'statusCode' | 'reason'>): void {
    if (REFUSED.has(e.statusCode)) this.refusals.inc({ status: e.statusCode, reason: e.reason });
  }

  storeError(): void {
    this.storeErrors.inc();
  }

  reload(outcome: ReloadOutcome): void {
    this.reloads.inc({ outcome });
  }

  /** Serves GET /metrics on host:port; resolves to the bound server. */
  async listen(host: string, port: number): Promise<http.Server> {
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res
          .writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
          .end('{"statusCode":404,"error":"Not Found","message":"only GET /metrics is served here"}');
        return;
      }
      this.registry.metrics().then(
        (text) =>
          res.writeHead(200, { 'content-type': this.registry.contentType, 'cache-control': 'no-store' }).end(text),
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return server;
  }
}
