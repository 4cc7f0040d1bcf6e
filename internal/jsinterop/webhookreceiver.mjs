// A buyer's webhook receiver on the official AdCP JavaScript SDK's RFC 9421
// webhook verifier (verifyWebhookSignature), as a peer for adcpgen's Go
// tests: a Go seller's task updates are posted here.
//
//   node webhookreceiver.mjs '{"jwks": {...}}'
//
// It listens on a loopback port and prints one line when it does:
//
//   adcp-webhook-receiver-ready {"url":"http://127.0.0.1:PORT"}
//
// then one line per post:
//
//   adcp-webhook {"ok":true,"keyid":"...","path":"/...","idempotency_key":"..."}
//   adcp-webhook {"ok":false,"code":"webhook_signature_...","path":"/..."}
//
// answering 204 to a post that verifies and 401 with WWW-Authenticate:
// Signature error="<code>" to one that does not. jwks holds the seller's
// public keys.

import http from 'node:http';
import {
  verifyWebhookSignature,
  StaticJwksResolver,
  InMemoryReplayStore,
  InMemoryRevocationStore,
} from '@adcp/sdk/signing';

console.log = console.error;
const emit = line => process.stdout.write(line + '\n');

const options = JSON.parse(process.argv[2] ?? '{}');
const jwks = new StaticJwksResolver(options.jwks.keys);
const replayStore = new InMemoryReplayStore();
const revocationStore = new InMemoryRevocationStore();

const server = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = Buffer.concat(chunks).toString('utf8');
  const url = `http://${req.headers.host}${req.url}`;
  let idempotencyKey = null;
  try {
    idempotencyKey = JSON.parse(body).idempotency_key ?? null;
  } catch {}
  try {
    const out = await verifyWebhookSignature({ method: req.method, url, headers: req.headers, body }, { jwks, replayStore, revocationStore });
    emit('adcp-webhook ' + JSON.stringify({ ok: true, keyid: out.keyid ?? null, path: req.url, idempotency_key: idempotencyKey }));
    res.writeHead(204);
    res.end();
  } catch (err) {
    const code = err?.code ?? 'webhook_signature_invalid';
    emit('adcp-webhook ' + JSON.stringify({ ok: false, code, error: String(err?.message ?? err), path: req.url, idempotency_key: idempotencyKey }));
    res.writeHead(401, { 'WWW-Authenticate': `Signature error="${code}"`, 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: code }));
  }
});

server.listen(0, '127.0.0.1', () => {
  emit('adcp-webhook-receiver-ready ' + JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` }));
});

// The Go test ends the receiver by closing its stdin (or killing it).
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
