// A seller agent written with the official AdCP JavaScript SDK's seller
// framework (createAdcpServerFromPlatform), as a peer for adcpgen's Go tests.
//
//   node seller.mjs '<options JSON>'
//
// It serves MCP at /mcp (the SDK's serve()) and A2A at /a2a with the agent
// card at /.well-known/agent-card.json (the SDK's createA2AAdapter), on one
// loopback port, and prints one line when it listens:
//
//   adcp-seller-ready {"base":"http://127.0.0.1:PORT","mcp":".../mcp","a2a":".../a2a"}
//
// Options (all optional):
//   port         port to listen on (0, the default, picks a free one)
//   api_key      require "Authorization: Bearer <api_key>" on MCP and A2A
//   products     the get_products answer's products (default: one product)
//   errors       {tool: {code, message, recovery, retry_after, field}}: the
//                tool throws that AdCP error instead of answering
//   trace        log each request's method and path to stderr
//   card_capabilities_skill  list get_adcp_capabilities among the agent
//                card's skills (the SDK leaves it out, and its own buyer then
//                takes the agent for AdCP 2 over A2A)
//   async_delay_ms  how long a submitted create_media_buy stays submitted
//                (default 0: it is completed by the time the buyer polls)
//   signed_requests  {jwks, required_for, covers_content_digest}: verify
//                RFC 9421 request signatures on MCP with the SDK's verifier
//                (createExpressVerifier, as serve()'s preTransport), the
//                buyers' keys in jwks; a refused request gets 401 with
//                WWW-Authenticate: Signature error="<code>"
//
// Webhooks may go to http:// loopback URLs (the storyboard runner's receiver).
//
// create_media_buy answers `submitted` (through ctx.handoffToTask, the
// framework's async path) when the request's po_number begins with "async",
// as examples/seller does; otherwise it answers synchronously.

import express from 'express';
import { serve } from '@adcp/sdk';
import {
  AdcpError,
  createA2AAdapter,
  createAdcpServerFromPlatform,
  createIdempotencyStore,
  createInMemoryTaskRegistry,
  InMemoryStateStore,
  memoryBackend,
  verifyApiKey,
} from '@adcp/sdk/server';
import {
  createExpressVerifier,
  InMemoryReplayStore,
  InMemoryRevocationStore,
  StaticJwksResolver,
} from '@adcp/sdk/signing';

const options = JSON.parse(process.argv[2] ?? '{}');

// The framework refuses http:// and loopback webhook URLs unless told
// otherwise (and warns when told in code only).
process.env.ADCP_DECISIONING_ALLOW_HTTP_WEBHOOKS = '1';
process.env.ADCP_DECISIONING_ALLOW_PRIVATE_WEBHOOK_URLS = '1';

const defaultProducts = [
  {
    product_id: 'prod_display_ron',
    name: 'Run of network display',
    description: 'Display inventory across the network',
    delivery_type: 'non_guaranteed',
    format_ids: [{ id: 'display_300x250', agent_url: 'https://creative.example.com/mcp' }],
    publisher_properties: [{ publisher_domain: 'publisher.example.com', selection_type: 'all' }],
    pricing_options: [{ pricing_option_id: 'cpm_usd', pricing_model: 'cpm', fixed_price: 5, currency: 'USD' }],
    reporting_capabilities: {
      available_reporting_frequencies: ['daily'],
      expected_delay_minutes: 60,
      timezone: 'UTC',
      supports_webhooks: false,
      available_metrics: ['impressions', 'spend'],
      date_range_support: 'date_range',
    },
  },
];

// canned makes a tool's handler throw the AdCP error options.errors gives
// for it, if any, before doing its work.
function canned(tool, handler) {
  return async (...args) => {
    const e = options.errors?.[tool];
    if (e) {
      throw new AdcpError(e.code, {
        message: e.message ?? `canned ${e.code}`,
        ...(e.recovery && { recovery: e.recovery }),
        ...(e.retry_after !== undefined && { retry_after: e.retry_after }),
        ...(e.field && { field: e.field }),
      });
    }
    return handler(...args);
  };
}

let buys = 0;
function mediaBuy(req, status) {
  buys++;
  return {
    media_buy_id: `mb_${buys}`,
    status,
    confirmed_at: new Date().toISOString(),
    packages: (req.packages ?? []).map((p, i) => ({
      package_id: `pkg_${buys}_${i}`,
      product_id: p.product_id,
      pricing_option_id: p.pricing_option_id,
      budget: p.budget,
    })),
  };
}

const platform = {
  capabilities: {
    specialisms: ['sales-non-guaranteed'],
    channels: ['display'],
    pricingModels: ['cpm'],
  },
  // One account, whatever reference the buyer sends (the storyboards send
  // several shapes); 'derived' resolution would refuse account_id.
  accounts: {
    resolution: 'explicit',
    resolve: async () => ({ id: 'acc_test', name: 'Test account', status: 'active', ctx_metadata: {} }),
  },
  sales: {
    getProducts: canned('get_products', async () => ({ products: options.products ?? defaultProducts })),
    createMediaBuy: canned('create_media_buy', async (req, ctx) => {
      if (!String(req.po_number ?? '').startsWith('async')) return mediaBuy(req, 'active');
      return ctx.handoffToTask(async () => {
        await new Promise(resolve => setTimeout(resolve, options.async_delay_ms ?? 0));
        return mediaBuy(req, 'active');
      });
    }),
    updateMediaBuy: canned('update_media_buy', async id => ({ media_buy_id: id, status: 'active' })),
    getMediaBuys: canned('get_media_buys', async () => ({ media_buys: [] })),
    getMediaBuyDelivery: canned('get_media_buy_delivery', async () => ({
      currency: 'USD',
      reporting_period: { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' },
      media_buy_deliveries: [],
    })),
  },
};

// serve() builds a server per MCP request, as the SDK's docs do; the stores
// are shared, so every server sees the same tasks and idempotency records.
const stores = {
  idempotency: createIdempotencyStore({ backend: memoryBackend(), ttlSeconds: 3600 }),
  taskRegistry: createInMemoryTaskRegistry(),
  stateStore: new InMemoryStateStore(),
};
const newServer = () =>
  createAdcpServerFromPlatform(platform, {
    name: 'jsinterop-seller',
    version: '1.0.0',
    ...stores,
    resolveIdempotencyPrincipal: ctx => ctx.authInfo?.clientId ?? 'anonymous',
    allowPrivateWebhookUrls: true,
    logger: { debug() {}, info() {}, warn: console.error, error: console.error },
  });

const authenticate = options.api_key
  ? verifyApiKey({ keys: { [options.api_key]: { principal: 'buyer' } } })
  : undefined;

// signedRequests verifies each MCP request's signature before the MCP
// transport sees it, as createAdcpServer({signedRequests}) wires the same
// verifier (its own wiring needs capabilities the platform projection
// replaces): the exact body serve() buffered, the operation a tools/call
// names.
function signedRequests(sr) {
  const verify = createExpressVerifier({
    capability: { supported: true, covers_content_digest: sr.covers_content_digest ?? 'either', required_for: sr.required_for ?? [] },
    jwks: new StaticJwksResolver(sr.jwks.keys),
    replayStore: new InMemoryReplayStore(),
    revocationStore: new InMemoryRevocationStore(),
    resolveOperation: req => {
      try {
        const msg = JSON.parse(req.rawBody);
        return msg.method === 'tools/call' ? msg.params?.name : undefined;
      } catch {
        return undefined;
      }
    },
  });
  return (req, res) =>
    new Promise((resolve, reject) => {
      const reqShim = {
        method: req.method,
        url: req.url,
        originalUrl: req.url,
        headers: req.headers,
        rawBody: req.rawBody ?? '',
        protocol: 'http',
        get: name => req.headers[name.toLowerCase()],
      };
      const resShim = {
        status: code => ({
          set: (k, v) => ({
            json: body => {
              res.writeHead(code, { [k]: v, 'Content-Type': 'application/json' });
              res.end(JSON.stringify(body));
              resolve(true);
            },
          }),
        }),
      };
      verify(reqShim, resShim, err => (err ? reject(err) : resolve(false)));
    });
}

// serve() answers MCP exactly as a seller on the SDK does; the A2A adapter
// (an express app, with a server of its own on the same stores) takes the
// A2A paths of the same port. serve() listens on every interface once its
// readiness check passes; this one never does, and the server listens on
// loopback below instead.
const http = serve(newServer, {
  ...(authenticate && { authenticate }),
  ...(options.signed_requests && { preTransport: signedRequests(options.signed_requests) }),
  readinessCheck: () => new Promise(() => {}),
});
const mcp = http.listeners('request')[0];
http.removeAllListeners('request');

http.listen(options.port ?? 0, '127.0.0.1', async () => {
  const base = `http://127.0.0.1:${http.address().port}`;
  const agentCard = {
    name: 'jsinterop-seller',
    description: 'AdCP seller on @adcp/sdk',
    url: `${base}/a2a`,
    version: '1.0.0',
  };
  const a2aOptions = {
    server: newServer(),
    agentCard,
    ...(authenticate && {
      authenticate: async req => {
        const principal = await authenticate(req).catch(() => null);
        return principal ? { token: options.api_key, clientId: 'buyer', scopes: [] } : null;
      },
    }),
    logger: { debug() {}, info() {}, warn: console.error, error: console.error },
  };
  let a2a = createA2AAdapter(a2aOptions);
  if (options.card_capabilities_skill) {
    const { skills } = await a2a.getAgentCard();
    const capabilities = { ...skills[0], id: 'get_adcp_capabilities', name: 'get_adcp_capabilities' };
    capabilities.description = 'AdCP tool: get_adcp_capabilities.';
    a2a = createA2AAdapter({ ...a2aOptions, agentCard: { ...agentCard, skills: [capabilities, ...skills] } });
  }
  const app = express();
  app.use(express.json());
  a2a.mount(app);

  http.on('request', (req, res) => {
    const path = new URL(req.url ?? '/', base).pathname;
    if (options.trace) console.error(`seller: ${req.method} ${req.url} ${req.headers.accept ?? ''}`);
    if (path === '/a2a' || path.startsWith('/a2a/') || path === '/.well-known/agent-card.json') return app(req, res);
    return mcp(req, res);
  });
  console.log(`adcp-seller-ready ${JSON.stringify({ base, mcp: `${base}/mcp`, a2a: `${base}/a2a` })}`);
});

// The Go test ends the seller by closing its stdin (or killing it).
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
