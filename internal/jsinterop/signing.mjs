// The official AdCP JavaScript SDK's RFC 9421 signer and verifiers, as a
// peer for adcpgen's signing tests (signing_test.go).
//
//   node signing.mjs '<job JSON>'
//
// The job is {"cases": [...]}; each case is one of
//   {"op": "sign-request",   "request", "key", "now", "cover_digest"}
//   {"op": "sign-webhook",   "request", "key", "now"}
//   {"op": "verify-request", "request", "jwks", "now", "capability", "operation"}
//   {"op": "verify-webhook", "request", "jwks", "now"}
// where request is {method, url, headers, body}, key is {keyid, alg,
// private_jwk}, jwks is a JWKS document and now is Unix seconds.
//
// It prints one JSON line: {"results": [...]}, one per case: {"headers"}
// for a signature, {"ok", "keyid", "code", "error"} for a verification.

import {
  signRequest,
  signWebhook,
  verifyRequestSignature,
  verifyWebhookSignature,
  StaticJwksResolver,
  InMemoryReplayStore,
  InMemoryRevocationStore,
} from '@adcp/sdk/signing';

console.log = console.error;
console.info = console.error;

const job = JSON.parse(process.argv[2] ?? '{}');
const results = [];
for (const c of job.cases ?? []) {
  const now = () => c.now;
  try {
    switch (c.op) {
      case 'sign-request': {
        const key = { keyid: c.key.keyid, alg: c.key.alg, privateKey: c.key.private_jwk };
        const out = signRequest(c.request, key, { now, coverContentDigest: c.cover_digest === true });
        results.push({ headers: out.headers });
        break;
      }
      case 'sign-webhook': {
        const key = { keyid: c.key.keyid, alg: c.key.alg, privateKey: c.key.private_jwk };
        const out = signWebhook(c.request, key, { now });
        results.push({ headers: out.headers });
        break;
      }
      case 'verify-request': {
        const res = await verifyRequestSignature(c.request, {
          capability: c.capability,
          jwks: new StaticJwksResolver(c.jwks.keys),
          replayStore: new InMemoryReplayStore(),
          revocationStore: new InMemoryRevocationStore(),
          now,
          operation: c.operation,
        });
        results.push({ ok: res.status === 'verified', keyid: res.keyid ?? null, status: res.status });
        break;
      }
      case 'verify-webhook': {
        const res = await verifyWebhookSignature(c.request, {
          jwks: new StaticJwksResolver(c.jwks.keys),
          replayStore: new InMemoryReplayStore(),
          revocationStore: new InMemoryRevocationStore(),
          now,
        });
        results.push({ ok: true, keyid: res.keyid ?? null });
        break;
      }
      default:
        results.push({ ok: false, error: `unknown op ${c.op}` });
    }
  } catch (err) {
    results.push({ ok: false, code: err?.code ?? null, error: String(err?.message ?? err) });
  }
}
process.stdout.write(JSON.stringify({ results }) + '\n');
