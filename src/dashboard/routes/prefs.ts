// A user's own settings: usage alerts by mail on or off. Guarantees: CSRF-checked, the user's
// own account only; an account with alerts off gets no usage or trial alert (src/dashboard/alerts.ts).
import type { FastifyInstance } from 'fastify';
import type { DashboardDeps } from '../pages';
import { PREFIX } from '../pages';
import { field, type Body } from '../forms';
import { form, requireUser } from './guards';

export function prefsRoutes(app: FastifyInstance, { accounts }: DashboardDeps): void {
  app.post('/account/alerts', { schema: { hide: true }, preHandler: form(app, requireUser) }, async (req, reply) => {
    await accounts.selfServe.setPrefs(req.user!.name, { alerts: field(req.body as Body, 'on') === '1' });
    return reply.redirect(`${PREFIX}/account#alerts`, 303);
  });
}
