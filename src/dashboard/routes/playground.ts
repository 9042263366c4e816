// The label playground: a signed-in developer pastes label text and sees what
// POST /v1/labels/analyze answers, as a table. Guarantees: the call is made with one of the
// user's own keys and goes through the API's own access control (admitted by key id, then
// charged one call, refused 402/403/429/503 exactly as an HTTP call would be), then analysed
// on the API's label threads as the endpoint does (src/catalogue/label-pool.ts; busy: a 503,
// not charged); nothing is analysed for a refused call.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../shared/errors';
import { busyError } from '../../catalogue/label-pool';
import type { DashboardDeps } from '../pages';
import { errorsOf, field, labelError, LIMITS, type Body } from '../forms';
import { form, requireUser } from './guards';

const HIDE = { schema: { hide: true } };
const EXAMPLE =
  'Ingredients: Water/Aqua/Eau, Glycerin, Niacinamide (10%), Sodium Laureth Sulfate, Dimethicone, Phenoxyethanol, Parfum*. *Natural fragrance. May contain: CI 77891';

interface Analysis {
  counts: { entries: number; recognised: number; unrecognised: number };
  entries: { position: number; label_name: string; joined_by: string; ingredient: { name: string } | null }[];
  [flag: string]: unknown;
}

export function playgroundRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { accounts, access, catalogue, labels } = deps;
  const usable = async (account: string) => (await accounts.keys(account)).filter((k) => !k.disabled);

  app.get('/playground', { ...HIDE, preHandler: requireUser }, async (req, reply) =>
    reply.page('playground.eta', {
      title: 'Label playground',
      maxLabel: LIMITS.label,
      keys: await usable(req.user!.name),
      text: EXAMPLE,
      keyId: '',
      errors: {},
    }),
  );

  app.post(
    '/playground',
    // 100,000 characters form-encoded: up to 9 bytes each (a 3-byte character, percent-encoded)
    { ...HIDE, preHandler: form(app, requireUser), bodyLimit: 1024 * 1024 },
    async (req, reply) => {
      const body = req.body as Body;
      const text = field(body, 'text');
      const keyId = field(body, 'key');
      const keys = await usable(req.user!.name);
      const errors = errorsOf({
        text: labelError(text),
        key: keys.some((k) => k.id === keyId) ? undefined : 'Choose one of your keys.',
      });
      const data = { title: 'Label playground', maxLabel: LIMITS.label, keys, text, keyId, errors };
      if (Object.keys(errors).length > 0) return reply.code(400).page('playground.eta', data);
      let result: Analysis;
      const admitted = labels.admit();
      try {
        const grant = await access.admitKeyId(keyId);
        if (!admitted) throw busyError();
        await access.charge(grant, 1);
        result = JSON.parse((await labels.analyse(catalogue.current, text)).toString()) as Analysis;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return reply.page('playground.eta', { ...data, refused: { status: err.statusCode, message: err.message } });
      } finally {
        if (admitted) labels.release();
      }
      return reply.page('playground.eta', { ...data, result });
    },
  );
}
