// A buyer written with the official AdCP JavaScript SDK's client
// (AgentClient), as a peer for adcpgen's Go tests.
//
//   node buyer.mjs '<options JSON>'
//
// Options:
//   agent      the seller's URL (MCP endpoint, or the A2A base URL)
//   protocol   "mcp" or "a2a"
//   auth       bearer token (optional)
//   steps      what to do, in order (default: all of them):
//                "capabilities"     getCapabilities() (get_adcp_capabilities,
//                                   or the tool list when the agent looks v2)
//                "get_products"     getProducts({buying_mode: "brief", brief})
//                "create_media_buy" createMediaBuy(create_media_buy) and, when
//                                   the answer is submitted, waitForCompletion()
//                                   (which polls the tasks/get tool)
//   create_media_buy  the request (default: the first product get_products
//              answered, po_number "async-1", which seller.mjs and
//              examples/seller answer submitted)
//   poll_ms    waitForCompletion's interval (default 100)
//
// It prints one JSON line: {"steps": [{step, success, status, data, error,
// adcp_error, task_id, completed}], "error"}. Anything the SDK
// logs goes to stderr.

import { AgentClient } from '@adcp/sdk';

// The SDK logs with console.log too; stdout is kept for the summary.
console.log = console.error;
console.info = console.error;

const options = JSON.parse(process.argv[2] ?? '{}');
const steps = options.steps ?? ['capabilities', 'get_products', 'create_media_buy'];

const client = new AgentClient(
  {
    id: 'seller',
    name: 'seller',
    agent_uri: options.agent,
    protocol: options.protocol,
    ...(options.auth && { auth_token: options.auth }),
  },
  { validation: { requests: 'off', responses: 'warn' } }
);

// The default create_media_buy buys the first product get_products
// answered (seller.mjs's own when that step did not run).
let product = { product_id: 'prod_display_ron', pricing_option_id: 'cpm_usd' };
const createMediaBuy = () =>
  options.create_media_buy ?? {
    account: { brand: { domain: 'acme.example' }, operator: 'acme.example' },
    brand: { domain: 'acme.example' },
    po_number: 'async-1',
    start_time: '2027-01-01T00:00:00Z',
    end_time: '2027-01-31T00:00:00Z',
    packages: [{ ...product, budget: 1000 }],
  };

// summary keeps what a Go test asserts on from a TaskResult.
function summary(step, r) {
  return {
    step,
    success: r.success,
    status: r.status,
    ...(r.data !== undefined && { data: r.data }),
    ...(r.error !== undefined && { error: String(r.error) }),
    ...(r.adcpError !== undefined && { adcp_error: r.adcpError }),
    ...(r.submitted?.taskId !== undefined && { task_id: r.submitted.taskId }),
  };
}

const out = { steps: [] };
try {
  for (const step of steps) {
    switch (step) {
      case 'capabilities': {
        const caps = await client.getCapabilities();
        out.steps.push({ step, success: true, data: caps });
        break;
      }
      case 'get_products': {
        const r = await client.getProducts({ buying_mode: 'brief', brief: 'display' });
        const first = r.data?.products?.[0];
        if (first?.pricing_options?.[0]) {
          product = { product_id: first.product_id, pricing_option_id: first.pricing_options[0].pricing_option_id };
        }
        out.steps.push(summary(step, r));
        break;
      }
      case 'create_media_buy': {
        const r = await client.createMediaBuy(createMediaBuy());
        const s = summary(step, r);
        if (r.status === 'submitted' && r.submitted) {
          s.completed = summary('wait', await r.submitted.waitForCompletion(options.poll_ms ?? 100));
        }
        out.steps.push(s);
        break;
      }
      default:
        throw new Error(`unknown step ${step}`);
    }
  }
} catch (err) {
  out.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
// Exit once the summary is written: stdout to a pipe is asynchronous.
process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(0));
