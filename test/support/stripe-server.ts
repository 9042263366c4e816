// A local stand-in for Stripe's API that records what the official library sends (method, path,
// headers, form body) and answers the few calls the dashboard makes, shaped as Stripe's API
// reference shows them; and webhook events signed as Stripe signs them, by the library's own
// test-header helper.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface StripeCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

export interface StripeStandIn {
  url: string;
  calls: StripeCall[];
  close(): Promise<void>;
}

export async function startStripe(): Promise<StripeStandIn> {
  const calls: StripeCall[] = [];
  let n = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString());
      const path = (req.url ?? '').split('?')[0];
      calls.push({ method: req.method ?? '', path, headers: req.headers, form });
      const id = ++n;
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${id}` });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && path === '/v1/checkout/sessions')
        return send(200, {
          id: `cs_test_${id}`,
          object: 'checkout.session',
          mode: 'subscription',
          url: `https://checkout.stripe.com/c/pay/cs_test_${id}`,
        });
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions')
        return send(200, {
          id: `bps_${id}`,
          object: 'billing_portal.session',
          customer: form.get('customer'),
          url: `https://billing.stripe.com/p/session/test_${id}`,
        });
      if (req.method === 'POST' && path === '/v1/billing/meter_events')
        return send(200, {
          object: 'billing.meter_event',
          created: Math.floor(Date.now() / 1000),
          event_name: form.get('event_name'),
          identifier: form.get('identifier'),
          livemode: false,
          payload: { stripe_customer_id: form.get('payload[stripe_customer_id]'), value: form.get('payload[value]') },
          timestamp: Number(form.get('timestamp')),
        });
      send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${path})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let eventN = 0;

/** An event of `type` about `object`, as Stripe's API reference shows one. */
export function stripeEvent(type: string, object: Record<string, unknown>): Record<string, unknown> {
  return {
    id: `evt_test_${Date.now()}_${++eventN}`,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** POSTs the event to the webhook, signed with `secret` by the library's test-header helper. */
export async function sendWebhook(
  url: string,
  event: Record<string, unknown>,
  secret: string,
): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify(event);
  const header = new Stripe('sk_test_x').webhooks.generateTestHeaderString({ payload, secret });
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  });
  return { status: res.status, body: await res.text() };
}
