// Runs one compliance storyboard as `adcp storyboard run` does (the same
// comply() call, options and JSON report), plus a test kit, which the CLI
// has no flag for: the storyboards read the agent's API key and protected
// probe task from it (security_baseline skips its API-key phase without).
//
//   node storyboard.mjs '<options JSON>'
//
// Options: agent (URL), storyboard (id), protocol ("mcp" or "a2a"), auth
// (bearer token), test_kit (e.g. {"auth": {"api_key": "...", "probe_task":
// "list_creatives"}}), timeout_ms (default 120000), request_signing (the
// runner's signed-requests options, e.g. {"skipVectors": [...]}), and
// webhook_brand_json_url: the seller's brand.json, whose agents[] entry for
// the agent (else its first) names the jwks_uri of the keys its webhooks
// verify with, for webhook_emission's signature phase (the runner's
// webhook_signing option, which the CLI cannot pass either). It prints the
// JSON report on stdout, as the CLI's --json does.

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
  storyboards: [options.storyboard],
  timeout_ms: options.timeout_ms ?? 120000,
  ...(options.auth && { auth: { type: 'bearer', token: options.auth } }),
  allow_http: true,
  // --webhook-receiver (loopback)
  webhook_receiver: { mode: 'loopback_mock' },
  contracts: ['webhook_receiver_runner'],
  ...(options.test_kit && { test_kit: options.test_kit }),
  ...(options.request_signing && { request_signing: options.request_signing }),
  ...(options.webhook_brand_json_url && { webhook_signing: await webhookSigning(options.webhook_brand_json_url) }),
});
// Exit once the report is written: stdout to a pipe is asynchronous.
process.stdout.write(formatComplianceResultsJSON(result) + '\n', () => process.exit(0));
