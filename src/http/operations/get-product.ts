// GET /v1/products/{id} — one full product payload; a barcode sent here is pointed
// at the barcode endpoint; 404 echoes the id.
import { Type } from '@sinclair/typebox';
import type { Api } from '../api';
import { NO_QUERY, Product, Uuid } from '../schemas';
import { HEADERS, REFUSED, V1_REFUSALS, answer, refusals } from '../responses';
import { EXAMPLE_PRODUCT_ID, PRODUCT } from '../examples';
import { COMPRESSED_ANSWERS, answerEncoding, sendAnswer } from '../answer-encoding';
import { ApiError } from '../../shared/errors';
import { isBarcode } from '../../shared/text';

const Params = Type.Object({ id: Uuid('Product id; letter case is ignored.', EXAMPLE_PRODUCT_ID) });

export function getProduct(app: Api): void {
  app.get(
    '/v1/products/:id',
    {
      schema: {
        operationId: 'getProduct',
        summary: 'Fetch one product with its full ingredient list',
        tags: ['products'],
        description: `${COMPRESSED_ANSWERS} ${NO_QUERY}`,
        params: Params,
        querystring: Type.Object({}),
        response: {
          200: answer(
            Product,
            'The product with its ingredients in label order.',
            { ...HEADERS.trialRemaining, ...HEADERS.encoding },
            PRODUCT,
          ),
          ...refusals([...V1_REFUSALS, 404], {
            400: `${REFUSED[400]} A barcode sent as the id is pointed at the barcode operation.`,
            404: 'No product has this id; the message echoes it.',
          }),
        },
      },
      // A callback, not an async function: no promise per request.
      preValidation: (req, _reply, done) => {
        const { id } = req.params;
        if (!isBarcode(id)) return done();
        done(
          new ApiError(
            'bad_request',
            `id must be a uuid; ${id} looks like a barcode: use GET /v1/products/barcode/${id}`,
          ),
        );
      },
    },
    (req, reply) => {
      const encoding = answerEncoding(req.headers['accept-encoding']);
      const product = app.catalogue().product(req.params.id, encoding);
      if (product === null) throw new ApiError('not_found', `No product with id ${req.params.id}`);
      sendAnswer(reply, product, encoding);
    },
  );
}
