// GET /v1/products/barcode/{barcode} — the product of any zero-padded form of a
// stored GTIN/EAN/UPC; barcode-enabled plans only; 404 echoes the barcode.
import { Type } from '@sinclair/typebox';
import type { Api } from '../api';
import { Product, errors } from '../schemas';
import { COMPRESSED_ANSWERS, answerEncoding, sendAnswer } from '../answer-encoding';
import { ApiError } from '../../shared/errors';
import { BARCODE_PATTERN } from '../../shared/text';

const Params = Type.Object({
  barcode: Type.String({
    pattern: BARCODE_PATTERN,
    description: 'GTIN, EAN or UPC: 8 to 14 digits, leading zeros optional.',
    'x-message': 'must be 8 to 14 digits with no spaces or separators',
  }),
});

export function getProductByBarcode(app: Api): void {
  app.get(
    '/v1/products/barcode/:barcode',
    {
      config: { barcode: true },
      schema: {
        operationId: 'getProductByBarcode',
        summary: 'Fetch a product by barcode (barcode-enabled plans)',
        tags: ['products'],
        description: COMPRESSED_ANSWERS,
        params: Params,
        querystring: Type.Object({}),
        response: { 200: Product, ...errors(400, 402, 403, 404, 429, 503) },
      },
    },
    (req, reply) => {
      const encoding = answerEncoding(req.headers['accept-encoding']);
      const product = app.catalogue().productByBarcode(req.params.barcode, encoding);
      if (product === null) throw new ApiError('not_found', `No product with barcode ${req.params.barcode}`);
      sendAnswer(reply, product, encoding);
    },
  );
}
