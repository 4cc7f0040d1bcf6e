// Package jsinterop runs the official AdCP JavaScript SDK (@adcp/sdk, the
// exact version package-lock.json pins: 6.11.0, which bundles the AdCP 3.0.6
// schemas) as a real peer in Go tests: a seller on its seller framework and
// a buyer on its client, both on loopback.
//
// This directory is a small Node project of our own: package.json and
// package-lock.json pin the SDK and its peers; seller.mjs and buyer.mjs are
// the peers. Require (or Setup outside tests) finds node (20 or newer) and
// npm, and installs the pinned packages into node_modules (git-ignored, as
// is everything npm writes) with `npm ci --ignore-scripts`, once: a stamp
// holding the lock file's hash skips npm entirely afterwards, so tests run
// offline, and a file lock keeps parallel test binaries from installing at
// once. Without node or npm, tests skip saying so; ADCP_REQUIRE_NODE=1 (set
// by CI) makes that a failure.
//
//   - StartSeller starts seller.mjs: createAdcpServerFromPlatform with one
//     non-guaranteed product, create_media_buy (submitted when po_number
//     begins with "async", through ctx.handoffToTask, completed by the first
//     poll), the SDK's serve() for MCP at /mcp and createA2AAdapter for A2A
//     at /a2a, on one port. SellerOptions add an API key, canned AdCP errors
//     per tool, a slower async completion, the capabilities skill, and
//     RFC 9421 request verification on MCP (the SDK's
//     createExpressVerifier, SellerSignedRequests).
//   - StartWebhookReceiver starts webhookreceiver.mjs, a buyer's webhook
//     endpoint on the SDK's verifyWebhookSignature; signedwire_test.go
//     posts an adcpgen seller's task webhooks to it, and signs an adcpgen
//     buyer's calls for the verifying seller.
//   - RunBuyer runs a script written with the SDK's client and returns its
//     JSON summary; Buy drives buyer.mjs (AgentClient: getCapabilities,
//     getProducts, createMediaBuy then waitForCompletion).
//   - signing.mjs runs the SDK's RFC 9421 signer and verifiers
//     (signRequest, signWebhook, verifyRequestSignature,
//     verifyWebhookSignature) on cases a test hands it; signing_test.go
//     checks runtime/signing against them in both directions.
//   - BuildExampleSeller builds examples/seller to start, which
//     example_test.go drives with buyer.mjs over MCP and A2A and
//     internal/conformance with the compliance runner.
//
// # The seller framework, as measured (seller_test.go)
//
// MCP:
//   - The 3.0.x status tool is an MCP tool named literally "tasks/get"
//     (with an alias "tasks_get"), although MCP tool names may not hold "/"
//     (the MCP SDK warns and registers it). It answers the flat
//     core/tasks-get-response.json shape (task_id, task_type, status,
//     protocol, has_webhook, created_at, updated_at, completed_at) and, once
//     completed, the task's payload as "result" whether or not
//     include_result was sent. While the task runs it says "submitted".
//   - A submitted answer is structuredContent {"status":"submitted",
//     "task_id":"task_<uuid>"} with no media_buy_id; replaying its
//     idempotency key returns the same task_id and "replayed":true.
//   - An AdCP error is isError:true with {"adcp_error":{...}} in both
//     structuredContent and content[0].text; recovery is filled in from the
//     code when the handler gave none.
//   - POST answers are server-sent events. A request whose Accept header
//     lacks text/event-stream is refused with HTTP 406 (serve() does not use
//     the SDK's own mcpAcceptHeaderMiddleware).
//   - tools/list publishes a passthrough input schema for every framework
//     tool; requests are validated against the bundled 3.0.6 schemas (strict
//     unless NODE_ENV=production: get_products needs buying_mode).
//   - With an API key, a call without it or with a wrong one gets HTTP 401
//     and `WWW-Authenticate: Bearer realm="mcp", error="invalid_token"`.
//
// A2A (createA2AAdapter):
//   - The agent card has no preferredTransport, which a2a-go v0.3.3 refuses
//     ("no compatible transports found"; runtime/a2aclient accepts it). Its
//     skills are every registered tool except get_adcp_capabilities
//     (tasks/get and tasks_get included). It is served at
//     /.well-known/agent-card.json and /a2a/.well-known/agent-card.json.
//   - A DataPart {skill, input} invokes a tool; the legacy {skill,
//     parameters} works the same.
//   - A submitted answer is a *completed* A2A task (the call is done, the
//     work is not) whose artifact, named "submitted", holds the AdCP payload
//     in a DataPart and the AdCP task id at metadata.adcp_task_id as well as
//     in the payload's task_id. The status tool is the skill "tasks/get".
//   - An AdCP error is a failed task whose artifact, named "error", holds
//     {"adcp_error":{...}} in a DataPart; there is no JSON-RPC error.
//   - With an API key, a message without it or with a wrong one gets HTTP
//     500 and the JSON-RPC error -32603 "General processing error." (no 401
//     and no WWW-Authenticate).
//
// Beyond what issues 11 and 12 say: the card's missing
// get_adcp_capabilities makes the SDK's own buyer (and the compliance
// runner) treat such a seller as AdCP 2 over A2A; SellerOptions.
// CardCapabilitiesSkill adds the skill, and the same buyer then works.
//
// # The buyer, as measured (buyer_test.go)
//
//   - Over A2A it fetches AGENT/.well-known/agent.json, then
//     AGENT/.well-known/agent-card.json (AGENT being the URL it was given,
//     unchanged), and sends to the card's url.
//   - It treats the agent as AdCP 2 unless get_adcp_capabilities is among
//     the card's skills (over MCP: among tools/list). For AdCP 2 it rewrites
//     requests: account is dropped, brand becomes brand_manifest, buyer_ref
//     is added, buying_mode is dropped (so an AdCP 3.0 seller rejects
//     get_products). For AdCP 3 it calls get_adcp_capabilities first and adds
//     "adcp_major_version":3 to every request, status polls included.
//   - Its DataPart is always {skill, parameters}.
//   - It reads the AdCP status of an A2A answer at
//     artifacts[0].parts[0].data.status only: with a TextPart first, a
//     submitted answer looks completed and is never polled. It takes the
//     task id from artifacts[0].metadata.adcp_task_id (falling back to the
//     A2A task id), not from the payload's task_id; over MCP from
//     structuredContent.task_id.
//   - It polls a tool literally named "tasks/get" (MCP tool, A2A skill) with
//     {"task_id", "include_result":true} and reads "result" as the
//     completed task's data.
//   - It adds an idempotency_key (a UUID) to mutating calls.
//   - It reads an A2A answer's DataPart only when the task's state is
//     completed. An adcp_error in a failed task (as the A2A extraction rules
//     and the SDK's own seller send it) reaches the caller as "Task failed",
//     its code unread (the compliance runner, which uses this client,
//     reports such steps as `got "Task failed"`); the same adcp_error in a
//     completed task is read.
//
// # adcpgen's typed client against the seller (gobuyer_test.go)
//
// runtime/buyer, with bindings generated from the 3.0.26 bundle at test time
// (testdata/gobuyer), calls get_adcp_capabilities, get_products and
// create_media_buy over MCP and A2A, follows the submitted buy through the
// tasks/get tool to its result, with an idempotency key of its own making,
// and reads AdCP errors with retry_after. `adcpgen call --wait --validate`
// does the same (call_test.go), and the completed buy has no schema issue
// against 3.0.26.
package jsinterop
