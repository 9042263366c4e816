// GET /v1/products/barcode/{barcode} — the product of any zero-padded form of a
// stored GTIN/EAN/UPC; barcode-enabled plans only; 404 echoes the barcode.
import { Type } from '@sinclair/typebox';
import type { Api } from '../api';
import { NO_QUERY, Product } from '../schemas';
import { HEADERS, V1_REFUSALS, answer, refusals } from '../responses';
import { EXAMPLE_BARCODE, PRODUCT } from '../examples';
import { COMPRESSED_ANSWERS, answerEncoding, sendAnswer } from '../answer-encoding';
import { ApiError } from '../../shared/errors';
import { BARCODE_PATTERN } from '../../shared/text';

const Params = Type.Object({
  barcode: Type.String({
    pattern: BARCODE_PATTERN,
    description: 'GTIN, EAN or UPC: 8 to 14 digits, leading zeros optional.',
    'x-message': 'must be 8 to 14 digits with no spaces or separators',
    examples: [EXAMPLE_BARCODE],
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
        description: `Every zero-padded form of a stored code resolves to the same product. ${COMPRESSED_ANSWERS} ${NO_QUERY}`,
        params: Params,
        querystring: Type.Object({}),
        response: {
          200: answer(
            Product,
            'The primary product of this barcode, with its ingredients in label order.',
            { ...HEADERS.trialRemaining, ...HEADERS.encoding },
            PRODUCT,
          ),
          ...refusals([...V1_REFUSALS, 404], {
            403: "Missing, invalid or disabled API key, or the key's plan does not include barcode lookup.",
            404: 'No product carries this barcode in any GTIN form; the message echoes it.',
          }),
        },
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
