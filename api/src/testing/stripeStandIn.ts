import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** A request the stand-in received, its form body flattened (`line_items[0][price]`). */
export type StripeRequest = { method: string; path: string; idempotencyKey: string | undefined; form: Record<string, string> };

export type StandInSubscription = {
  id: string;
  customer: string;
  lookupKey: string;
  status: string;
  cancelAtPeriodEnd?: boolean;
  periodEnd?: number;
};

/**
 * A local HTTP server that answers the few Stripe API calls Parley makes, in Stripe's shapes:
 * the real SDK is pointed at it (STRIPE_API_BASE) because the tests cannot reach Stripe.
 * Repeated idempotency keys get the first answer back, as Stripe does.
 */
export async function startStripeStandIn(prices: Array<{ lookupKey: string; amount: number; currency?: string }>) {
  const requests: StripeRequest[] = [];
  const subscriptions = new Map<string, StandInSubscription>();
  const byKey = new Map<string, unknown>();
  let n = 0;
  const priceObjects = prices.map((p, i) => ({
    id: `price_${i}_${p.lookupKey}`,
    object: 'price',
    active: true,
    lookup_key: p.lookupKey,
    unit_amount: p.amount,
    currency: p.currency ?? 'usd',
    recurring: { interval: p.lookupKey.endsWith('yearly') ? 'year' : 'month' },
  }));

  const answer = (req: StripeRequest): [number, unknown] => {
    const { method, path } = req;
    if (method === 'GET' && path.startsWith('/v1/prices')) {
      // The SDK writes arrays as lookup_keys[0]=…&lookup_keys[1]=…
      const wanted = [...new URLSearchParams(path.split('?')[1] ?? '')].filter(([k]) => k.startsWith('lookup_keys[')).map(([, v]) => v);
      return [200, { object: 'list', has_more: false, url: '/v1/prices', data: priceObjects.filter((p) => wanted.includes(p.lookup_key)) }];
    }
    if (method === 'POST' && path === '/v1/customers') return [200, { id: `cus_test${++n}`, object: 'customer', metadata: {} }];
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_${++n}`;
      return [200, { id, object: 'checkout.session', mode: req.form.mode, url: `https://checkout.stripe.com/c/pay/${id}` }];
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = `bps_test_${++n}`;
      return [200, { id, object: 'billing_portal.session', url: `https://billing.stripe.com/p/session/${id}` }];
    }
    const sub = /^\/v1\/subscriptions\/([A-Za-z0-9_]+)$/.exec(path);
    if (method === 'GET' && sub) {
      const s = subscriptions.get(sub[1]!);
      if (!s)
        return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${sub[1]}'` } }];
      return [200, subscriptionObject(s)];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } }];
  };

  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      const record: StripeRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        idempotencyKey,
        form: Object.fromEntries(new URLSearchParams(body)),
      };
      requests.push(record);
      const key = idempotencyKey ? `${record.method} ${record.path} ${idempotencyKey}` : undefined;
      const [status, payload] = key && byKey.has(key) ? [200, byKey.get(key)] : answer(record);
      if (key && status === 200) byKey.set(key, payload);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${n}` });
      res.end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    /** What Stripe says about a subscription from now on (GET /v1/subscriptions/:id). */
    setSubscription(s: StandInSubscription) {
      subscriptions.set(s.id, s);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function subscriptionObject(s: StandInSubscription) {
  const periodEnd = s.periodEnd ?? Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
  return {
    id: s.id,
    object: 'subscription',
    customer: s.customer,
    status: s.status,
    cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
    canceled_at: s.status === 'canceled' || s.cancelAtPeriodEnd ? Math.floor(Date.now() / 1000) : null,
    metadata: {},
    items: {
      object: 'list',
      data: [
        {
          id: `si_${s.id}`,
          object: 'subscription_item',
          current_period_end: periodEnd,
          price: { id: `price_${s.lookupKey}`, object: 'price', lookup_key: s.lookupKey },
        },
      ],
    },
  };
}

/** A webhook delivery as Stripe makes it: the JSON body and its `Stripe-Signature` header. */
export function signedEvent(secret: string, type: string, object: unknown, id = `evt_${Math.random().toString(36).slice(2)}`) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const stripe = new Stripe('sk_test_signing_only');
  return { id, payload, signature: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}
