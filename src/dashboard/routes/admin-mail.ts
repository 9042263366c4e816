// The admins' mail page: every mail the dashboard made in the last 30 days, newest first, with
// its state (waiting in the outbox, sent, failed and why), and one mail's text. Without an SMTP
// server this is how mail reaches people: an admin passes the link on. Guarantees: admins only;
// a sent mail shows no text (the store keeps none); the text is shown escaped, never as HTML.
import type { FastifyInstance } from 'fastify';
import type { DashboardDeps } from '../pages';
import { errorPage } from '../pages';
import { requireAdmin } from './guards';
import { pageOf } from '../paging';

const HIDE = { schema: { hide: true } };
const PER_PAGE = 25;

export function adminMailRoutes(app: FastifyInstance, { accounts, mailer, settings }: DashboardDeps): void {
  const admin = { ...HIDE, preHandler: requireAdmin };

  app.get('/admin/mail', admin, async (req, reply) => {
    const page = pageOf(req.query);
    const { total, mails } = await accounts.outbox.mails((page - 1) * PER_PAGE, PER_PAGE);
    return reply.page('admin-mail.eta', {
      title: 'Mail',
      mode: mailer.mode,
      from: settings.mail?.from ?? '',
      mails,
      page,
      pages: Math.max(1, Math.ceil(total / PER_PAGE)),
      total,
    });
  });

  app.get('/admin/mail/:id', admin, async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const mail = /^[0-9a-f]{32}$/.test(id) ? await accounts.outbox.mail(id) : null;
    if (mail === null) return errorPage(reply, 404, 'missing');
    return reply.page('admin-mail-one.eta', { title: mail.subject, mail });
  });
}
