// Runs compliance storyboards with multi-agent routing, as `adcp
// storyboard run --agents-map` does (runStoryboard with agents and a
// default agent, one tool's protocol to the agent that claims it), plus
// the run context the CLI has no flag for: the storyboards that register
// a governance agent read its URL from $context.governance_agent_url.
//
//   node routed.mjs '<options JSON>'
//
// It runs in the runner kit's folder (internal/conformance copies it
// there), so that @adcp/sdk is the kit's.
//
// Options: agents ({key: {url}}), default_agent, storyboards (ids),
// version (the compliance bundle), protocol, auth (bearer token, every
// agent's), context (object), seed_mcp
// (the MCP URL of the agent whose comply_test_controller takes the
// storyboards' fixtures). The runner does not seed fixtures in routed runs
// ("not yet supported"; it says to seed out of band), so this script does,
// as its controller_seeding would: seed_product and seed_pricing_option
// per fixture. It prints one JSON report shaped as comply()'s (summary,
// tracks, failures), with each step's agent.

import { runStoryboard, getComplianceStoryboardById, setAgentTesterLogger, withExternalSchemaRoot } from '@adcp/sdk/testing';
import { getExternalSchemaRootForCompliance, loadComplianceIndex } from './node_modules/@adcp/sdk/dist/lib/testing/storyboard/index.js'; // the CLI's own import: not exported

console.log = console.error;
console.info = console.error;
setAgentTesterLogger({ info() {}, error() {}, warn() {}, debug() {} });

const options = JSON.parse(process.argv[2] ?? '{}');

let rpcID = 0;
// The bundle's release, as a call pins it ("3.2.0-beta.5" is "3.2-beta.5"):
// the fixtures are seeded in it, as the runner's own seeding does. 3.0's
// controller takes no account; from 3.1 it takes the test kit's sandbox
// account.
const [, minor, pre] = /^3\.(\d+)\.\d+(?:-(.+))?$/.exec(options.version) ?? [];
const pin = minor === undefined || minor === '0'
  ? { adcp_major_version: 3 }
  : {
      adcp_major_version: 3,
      adcp_version: `3.${minor}${pre ? `-${pre}` : ''}`,
      account: { brand: { domain: 'acmeoutdoor.example' }, operator: 'pinnacle-agency.example', sandbox: true },
    };
// seed calls the seller's comply_test_controller over MCP (JSON-RPC).
async function seed(scenario, params) {
  const res = await fetch(options.seed_mcp, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${options.auth}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcID, method: 'tools/call', params: { name: 'comply_test_controller', arguments: { ...pin, scenario, params } } }),
  });
  const body = await res.json();
  if (body?.result?.structuredContent?.success !== true) {
    throw new Error(`seeding ${scenario} ${JSON.stringify(params)}: ${JSON.stringify(body)}`);
  }
}
const selection = { version: options.version };
const index = loadComplianceIndex(selection);
const schemaRoot = getExternalSchemaRootForCompliance(selection, index.adcp_version);
const summary = { steps_passed: 0, steps_failed: 0, steps_skipped: 0, total_steps: 0 };
const scenarios = [];
const failures = [];
for (const id of options.storyboards) {
  const sb = getComplianceStoryboardById(id, selection);
  if (!sb) throw new Error(`unknown storyboard ${id}`);
  if (sb.prerequisites?.controller_seeding) {
    for (const { product_id, ...fixture } of sb.fixtures?.products ?? []) await seed('seed_product', { product_id, fixture });
    for (const { product_id, pricing_option_id, ...fixture } of sb.fixtures?.pricing_options ?? []) {
      await seed('seed_pricing_option', { product_id, pricing_option_id, fixture });
    }
  }
  const result = await withExternalSchemaRoot(index.adcp_version, schemaRoot, () => runStoryboard('', sb, {
    protocol: options.protocol,
    ...(options.auth && { auth: { type: 'bearer', token: options.auth } }),
    allow_http: true,
    agents: options.agents,
    default_agent: options.default_agent,
    context: options.context ?? {},
    webhook_receiver: { mode: 'loopback_mock' },
    contracts: ['webhook_receiver_runner'],
    skip_controller_seeding: true,
  }));
  for (const phase of result.phases ?? []) {
    const steps = [];
    for (const step of phase.steps ?? []) {
      summary.total_steps++;
      if (step.skipped) summary.steps_skipped++;
      else if (step.passed) summary.steps_passed++;
      else {
        summary.steps_failed++;
        const v = (step.validations ?? []).find(v => !v.passed);
        failures.push({ storyboard_id: result.storyboard_id, step_id: step.step_id, step_title: step.title, task: step.task,
          error: step.error, ...(v && { validation: { check: v.check, description: v.description, expected: v.expected, actual: v.actual } }) });
      }
      const agent = Object.entries(result.agent_map ?? {}).find(([, url]) => url === step.agent_url)?.[0];
      steps.push({ step: step.title, task: step.task, passed: step.passed, skipped: !!step.skipped, skip_reason: step.skip_reason, agent });
    }
    scenarios.push({ scenario: `${result.storyboard_id}/${phase.phase_id}`, steps });
  }
}
const report = { summary, tracks: [{ scenarios }], failures, storyboards_executed: options.storyboards };
process.stdout.write(JSON.stringify(report, null, 2) + '\n', () => process.exit(0));
