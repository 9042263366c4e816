// Assembles the HTTP service: strict validation, one error shape (Node's early answers
// included), the access hooks on /v1, the nine operations, the OpenAPI document and the
// API reference page (openapi.ts), the landing page at / (landing.ts), and any extra routes
// (the dashboard).
// Guarantees: every operation is registered with the schemas that validate it and
// document it; the catalogue is read through `app.catalogue()` once per request, so a
// catalogue swapped while serving never mixes two files in one answer.
import { fastifyTrust, type TrustProxy } from './trust-proxy';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Catalogue, CatalogueRef } from '../catalogue/read-model';
import { LabelPool } from '../catalogue/label-pool';
import type { AccessControl } from '../access/types';
import { compileValidator } from './validator';
import { MAX_PARAM_LENGTH, frameworkErrors, installErrorHandling, type ErrorObserver } from './errors';
import { installAccessHooks } from './access-hooks';
import { answerConnect, answerExpectation, clientErrorHandler, requireHost } from './raw-answers';
import { installQueryCheck, parseQuery } from './query';
import { health } from './operations/health';
import { searchProducts } from './operations/search-products';
import { filterProducts } from './operations/filter-products';
import { getProduct } from './operations/get-product';
import { getProductByBarcode } from './operations/get-product-by-barcode';
import { batchProducts } from './operations/batch-products';
import { searchIngredients } from './operations/search-ingredients';
import { getIngredient } from './operations/get-ingredient';
import { analyzeLabel } from './operations/analyze-label';
import { installOpenApi } from './openapi';
import { BODY_LIMIT } from './schemas';
import { landing, type DashboardPlace } from './landing';
import { afterBody, installBodyDrain } from './unread-body';
import { installCatalogueOutage, type CatalogueProblem } from './catalogue-outage';
import { installSecurityHeaders } from './security-headers';
import { RequestLog } from './request-log';
import type { Metrics } from '../ops/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    catalogue(): Catalogue;
    /** The label analysis threads (src/catalogue/label-pool.ts). */
    labels: LabelPool;
  }
}

export interface AppOptions {
  catalogue: CatalogueRef;
  access: AccessControl;
  logger?: Logger;
  /** Request metrics (src/ops/metrics.ts); none when the metrics port is off. */
  metrics?: Metrics;
  /** Trust X-Forwarded-Proto/-For from the proxies in front (`--trust-proxy`; true: one). */
  trustProxy?: TrustProxy | true;
  /** Why the served catalogue cannot answer now (its requests are then answered 503); none by default. */
  catalogueProblem?: CatalogueProblem;
  /** The label analysis threads; by default a pool of its own, closed with the app. */
  labels?: LabelPool;
  /** Where the landing page (GET /) says the dashboard is; asked at its first request. None: not served. */
  dashboardPlace?: () => DashboardPlace;
  /** Registers more routes in contexts of their own after the API's (the dashboard, src/dashboard). */
  extend?: (app: FastifyInstance) => Promise<void>;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = createServer(opts);
  installSecurityHeaders(app);
  app.addHook('onRequest', requireHost);
  installBodyDrain(app);
  if (opts.catalogueProblem) installCatalogueOutage(app, opts.catalogueProblem);
  opts.metrics?.install(app);
  app.setValidatorCompiler(compileValidator);
  app.removeContentTypeParser('text/plain');
  installErrorHandling(app, refusalCounter(opts.metrics));
  installQueryCheck(app);
  app.decorate('catalogue', () => opts.catalogue.current);
  app.decorate('labels', opts.labels ?? ownLabelPool(app));
  await installOpenApi(app);
  landing(app, opts.dashboardPlace);
  health(app);
  await app.register(async (v1) => {
    installAccessHooks(v1, opts.access);
    searchProducts(v1);
    filterProducts(v1);
    getProductByBarcode(v1);
    batchProducts(v1);
    getProduct(v1);
    searchIngredients(v1);
    getIngredient(v1);
    analyzeLabel(v1);
  });
  await opts.extend?.(app);
  return app;
}

/** A label pool closed with the app. */
function ownLabelPool(app: FastifyInstance): LabelPool {
  const pool = new LabelPool();
  app.addHook('onClose', () => pool.close());
  return pool;
}

/** The error observer that counts refusals in the metrics (none without metrics). */
function refusalCounter(metrics: Metrics | undefined): ErrorObserver | undefined {
  return metrics && ((e) => metrics.refused(e));
}

/** The fastify instance with the ops limits and Node's early answers in the error shape; no routes yet. */
function createServer(opts: AppOptions): FastifyInstance {
  const requestLog = new RequestLog(opts.logger);
  const logger: FastifyBaseLogger | undefined = opts.logger; // fastify's view of the pino logger
  const observe = refusalCounter(opts.metrics);
  const app = Fastify({
    loggerInstance: logger,
    logController: requestLog,
    childLoggerFactory: (logger) => logger,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, querystringParser: parseQuery },
    bodyLimit: BODY_LIMIT,
    requestTimeout: 30_000,
    // Ops limits: 16 KiB of headers (Node answers 431 above it), headers within 10 s.
    // Node's own Host check answers a bare 400: requireHost (raw-answers.ts) does it in the error shape.
    http: {
      maxHeaderSize: 16 * 1024,
      headersTimeout: 10_000,
      connectionsCheckingInterval: 5_000,
      requireHostHeader: false,
    },
    // While stopping, requests already on a connection are served (with Connection: close), not refused.
    return503OnClosing: false,
    // A malformed URL gets the same error shape, headers and log line as everything else
    // (fastify does not log these requests itself: they never reach a route).
    // The onSend hooks do not run for these, so the body still arriving is waited for here.
    frameworkErrors: (err, req, reply) => {
      reply.raw.once('finish', () => requestLog.requestCompleted(null, req, reply));
      afterBody(req.raw, (closing) => {
        if (closing) reply.header('connection', 'close');
        frameworkErrors(err, req, reply, observe);
      });
    },
    clientErrorHandler,
    trustProxy: fastifyTrust(opts.trustProxy ?? false),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.on('connect', answerConnect(app));
  app.server.on('checkExpectation', answerExpectation(app));
  return app;
}
