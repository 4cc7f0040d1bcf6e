// Package oteladcp records what an AdCP buyer and seller do as
// OpenTelemetry traces and metrics, in AdCP's own terms: the tool, the
// transport, the release served, the task status, the AdCP error code and
// its recovery, idempotent replays, signature verdicts. It is the
// runtime/observe.Observer on the OpenTelemetry API, in a module of its
// own: the adcpgen runtime depends on no telemetry library, and a program
// that does not import this package pays nothing.
//
// New takes the providers in Options (OpenTelemetry's global ones by
// default, which record nothing until the program sets them). Give the
// Observer to every piece that reports to one: seller.Options.Observer,
// idempotency.Options.Observer, sellertask.Options.Observer,
// webhook.SenderOptions.Observer on the seller's side, and
// buyer.WithObserver on the buyer's (ExampleNew).
//
// What it records, with every attribute and metric in one table, is
// docs/telemetry.md. In short:
//
//   - the seller: a SERVER span per tool call ("tools/call get_products"
//     over MCP, "message/send get_products" over A2A), continuing the
//     trace context the caller sent in MCP's params._meta or in the HTTP
//     headers (or nesting under an HTTP server span of otelhttp that
//     continued it), with spans inside for the schema validation, the
//     idempotency layer, the handler, each store call, the task updates
//     and each webhook delivery and POST, which carries the trace on to
//     the buyer's receiver; a span for each request signature checked;
//   - the buyer: a CLIENT span per call and per poll, the trace context
//     sent in the HTTP headers and, over MCP, in params._meta;
//   - metrics: call durations by tool, transport and outcome under the MCP
//     and RPC conventions' names (mcp.server.operation.duration,
//     rpc.server.call.duration and their client twins), and adcp.* for the
//     rest: idempotency outcomes (replays, conflicts), signature verdicts,
//     pending tasks, webhook deliveries by outcome and age, pending
//     deliveries, store latency.
//
// No span or metric carries a credential, a key or a payload: the runtime
// never gives one to an Observer (see runtime/observe), and an error is
// recorded by its class (error.type), never its text. The text goes to the
// logs, which LogHandler stamps with the trace_id and span_id of the call
// they belong to.
//
// HTTP server and client spans are otelhttp's: wrap the seller's handler
// with otelhttp.NewHandler and the buyer's http.Client transport with
// otelhttp.NewTransport when they are wanted; the spans here nest with
// them.
package oteladcp
