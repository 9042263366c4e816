// GET / (and HEAD /): a small HTML page for whoever opens the service's address in a browser,
// linking to the developer dashboard, the API reference, the OpenAPI document and /health.
// Guarantees: only `/` itself is answered here (every other unknown path keeps the JSON 404 of
// api-spec.md 2.9); the page is rendered by Eta from one compiled template, escaped; it needs no script, and its one
// inline style is allowed by its hash in a Content-Security-Policy that allows nothing else;
// it is not part of the OpenAPI document and reads neither the catalogue nor the access store.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Eta } from 'eta';

/** Where the dashboard is, as the landing page tells it: on this port, on a port of its own, or not served. */
export type DashboardPlace = { path: string } | { port: number } | undefined;

const STYLE =
  'body{font:1.0625rem/1.5 system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:1rem 1.25rem;' +
  'color:#1d1d1f;background:#fff}a{color:#0b57d0}li{margin:.6rem 0}code{font-size:.95em;overflow-wrap:anywhere}' +
  '@media (prefers-color-scheme:dark){body{color:#e8e8ea;background:#161618}a{color:#8ab4f8}}';

/** The page's policy: its own inline style (by hash), nothing else, no framing, no form, no base. */
export const LANDING_CSP =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; ` +
  "frame-ancestors 'none'; form-action 'none'; base-uri 'none'";

const TEMPLATE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cosmetics Catalogue API</title>
<style><%~ it.style %></style>
</head>
<body>
<main>
<h1>Cosmetics Catalogue API</h1>
<p>A read-only JSON API for cosmetics products, their full INCI ingredient lists and an ingredient
safety dictionary. Every <code>/v1</code> call needs an API key in the <code>x-api-key</code> header.</p>
<ul>
<% if (it.dashboard) { %><li><a href="<%= it.dashboard %>">Developer dashboard</a>: sign up, get and manage API keys, see your usage</li>
<% } else if (it.dashboardPort) { %><li>Developer dashboard: on port <%= it.dashboardPort %> of this host, at <code>/dashboard</code></li>
<% } %><li><a href="/docs">API reference</a>: every operation, to read and try</li>
<li><a href="/openapi.json">OpenAPI 3.1 document</a>: for code generators and the typed client</li>
<li><a href="/health">Health</a>: the catalogue's size and build date (no key needed)</li>
</ul>
</main>
</body>
</html>
`;

const eta = new Eta({ autoEscape: true, autoTrim: false });
const page = eta.compile(TEMPLATE);

/** The page's HTML for a dashboard place. */
export function landingHtml(dashboard: DashboardPlace): string {
  return eta.render(page, {
    style: STYLE,
    dashboard: dashboard && 'path' in dashboard ? dashboard.path : undefined,
    dashboardPort: dashboard && 'port' in dashboard ? dashboard.port : undefined,
  });
}

/** Registers GET /; `dashboard` is asked at each request (a port of its own is known once it listens). */
export function landing(app: FastifyInstance, dashboard: () => DashboardPlace = () => undefined): void {
  app.get('/', { schema: { hide: true } }, (_req, reply) =>
    reply
      .header('content-security-policy', LANDING_CSP)
      .type('text/html; charset=utf-8')
      .send(landingHtml(dashboard())),
  );
}
