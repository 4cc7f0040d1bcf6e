// Runs storyboards as `adcp storyboard run AGENT --storyboards IDS` does
// (the same comply() call and JSON report), with the runner contracts the
// CLI cannot configure: webhook_signing (webhook_emission's
// signature_validity phase verifies the seller's webhooks with the keys
// its brand.json names) and parallel_dispatch_runner (idempotency's
// concurrent_retry phase fires two requests under one key at once). It
// runs in the runner kit's folder (internal/conformance copies it there),
// so that @adcp/sdk is the kit's.
//
//   node contracts.mjs '<options JSON>'
//
// Options: agent (URL), storyboards (ids), version (the compliance
// bundle), protocol ("mcp" or "a2a"), auth (bearer token), test_kit (the
// test kit's contents), timeout_ms, brand_json_url (the seller's
// brand.json: its agents[] entry for the agent, else its first, names the
// jwks_uri). It prints the JSON report on stdout, as the CLI's --json
// does.

import { comply, formatComplianceResultsJSON, setAgentTesterLogger } from '@adcp/sdk/testing';
import { StaticJwksResolver } from '@adcp/sdk/signing';

console.log = console.error;
console.info = console.error;
setAgentTesterLogger({ info() {}, error() {}, warn() {}, debug() {} });

const options = JSON.parse(process.argv[2] ?? '{}');

// webhookSigning resolves the seller's webhook keys through its brand.json.
async function webhookSigning(brandURL) {
  const brand = await (await fetch(brandURL)).json();
  const agents = brand.agents ?? [];
  const entry = agents.find(a => a.url === options.agent) ?? agents[0];
  if (!entry?.jwks_uri) throw new Error(`${brandURL}: no agents[] entry with a jwks_uri`);
  const jwks = await (await fetch(entry.jwks_uri)).json();
  return { jwks: new StaticJwksResolver(jwks.keys) };
}

const result = await comply(options.agent, {
  protocol: options.protocol,
  storyboards: options.storyboards,
  version: options.version,
  timeout_ms: options.timeout_ms ?? 900000,
  ...(options.auth && { auth: { type: 'bearer', token: options.auth } }),
  allow_http: true,
  // --webhook-receiver (loopback), and the contracts the CLI lacks.
  webhook_receiver: { mode: 'loopback_mock' },
  contracts: ['webhook_receiver_runner', 'parallel_dispatch_runner'],
  webhook_signing: await webhookSigning(options.brand_json_url),
  ...(options.test_kit && { test_kit: options.test_kit }),
});
// Exit once the report is written: stdout to a pipe is asynchronous.
process.stdout.write(formatComplianceResultsJSON(result) + '\n', () => process.exit(0));
