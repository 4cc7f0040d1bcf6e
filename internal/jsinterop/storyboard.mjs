// Runs one compliance storyboard as `adcp storyboard run` does (the same
// comply() call, options and JSON report), plus a test kit, which the CLI
// has no flag for: the storyboards read the agent's API key and protected
// probe task from it (security_baseline skips its API-key phase without).
//
//   node storyboard.mjs '<options JSON>'
//
// Options: agent (URL), storyboard (id), protocol ("mcp" or "a2a"), auth
// (bearer token), test_kit (e.g. {"auth": {"api_key": "...", "probe_task":
// "list_creatives"}}), timeout_ms (default 120000). It prints the JSON
// report on stdout, as the CLI's --json does.

import { comply, formatComplianceResultsJSON, setAgentTesterLogger } from '@adcp/sdk/testing';

console.log = console.error;
console.info = console.error;
setAgentTesterLogger({ info() {}, error() {}, warn() {}, debug() {} });

const options = JSON.parse(process.argv[2] ?? '{}');
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
});
// Exit once the report is written: stdout to a pipe is asynchronous.
process.stdout.write(formatComplianceResultsJSON(result) + '\n', () => process.exit(0));
