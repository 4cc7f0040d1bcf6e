// Package buyer is the typed AdCP client: it calls any tool of the spec
// version a generated package describes, over any Transport, and returns
// the tool's typed response or interim payload, strictly decoded from the
// seller's exact bytes.
//
// A call connects a transport (mcpclient.ConnectHTTP or ConnectCommand,
// a2aclient.Dial), makes a Client of it with the Spec of the package
// adcpgen generated, and calls a tool by its descriptor with a typed
// request: buyer.Call(ctx, c, adcp.Tools.GetProducts, &req). The result's
// Status says which of its fields holds the answer; the error is the
// seller's *adcperr.Error, a *TransportError, or a *SellerDataError naming
// the JSON pointer of bytes the strict decoders refused. ExampleCall is
// the whole of it, compiled and run.
//
// # What a call does
//
// The request is encoded by its strict encoder (nothing is sent when it
// fails). A tool whose idempotency_requirement is required gets an
// idempotency_key, a fresh UUID v4 unless the request or
// WithIdempotencyKey gives one, inserted into the encoded bytes and
// resent byte for byte on every retry. Transient AdCP errors (waiting
// their retry_after, rounded up and clamped to 1 s-1 h) and transient
// transport failures are retried within the retry policy's attempt and
// time ceilings (runtime/retry), and only when safe: a mutating call
// without an idempotency key is never retried.
//
// The answer is read from the seller's exact bytes (the transports keep
// them; see runtime/mcpclient and runtime/a2aclient) with AdCP's
// extraction algorithms (runtime/extract): MCP structuredContent or the
// text fallback, isError with adcp_error, JSON-RPC error.data.adcp_error;
// A2A task states (A2A 1.0 TASK_STATE_* names too), artifact DataParts,
// metadata.adcp_task_id, contextId, failed tasks carrying adcp_error. The
// status decides the type: a final answer decodes into the tool's
// response, submitted, working and input-required into the tool's interim
// payload types (nil where the spec has none, task.None), so a submitted
// answer is a status with a task id, never a response missing its fields.
// Duplicate keys, prototype keys however escaped and invalid UTF-8 are
// refused anywhere in the payload (on A2A, anywhere in the envelope), with
// the JSON pointer.
//
// # Releases
//
// A client is pinned to the release of its Spec (3.0.26 is 3.0) and
// declares it on every request, adcp_version and adcp_major_version
// (versioning.mdx); Reply.Release is the release the seller echoed.
// Releases reads the releases the seller speaks (a seller without
// get_adcp_capabilities is a *PreV3Error); VERSION_UNSUPPORTED, or the same
// verdict reached before sending once they are known, is a *VersionError
// listing them; an answer the seller served in another release is a
// *ReleaseError, checked against that release's Spec when the client holds
// it (WithReleases), never decoded into the pin's types; Pin makes a client
// of another release for the same seller. Nothing is retried at another
// release on the caller's behalf. See release.go.
//
// # Conversations
//
// A Conversation keeps the seller's context id and resends it, as AdCP's
// MCP guide asks: on MCP as the context_id argument, where the tool's
// request schema admits undeclared members (its strict decoder says so),
// on A2A as the message's contextId. After input-required, the next call
// in the conversation answers that task.
//
// # Waiting for a task
//
// Wait (and WaitForCompletion) follow a submitted or working task by
// polling the status tool the seller lists (tools/list, the agent card's
// skills; read once): get_task_status (the tool of 3.1 and later, asking
// include_result) or the tasks/get tool (before 3.1: core/tasks-get-*.json,
// no tool of the 3.0 manifest, found through the Spec's NewBySchema; asking
// include_history, whose last response entry is the result), the version's
// own when the seller lists both, or the list cannot be read. 2.5.3 has the
// tasks/get schemas too (its derived tool table calls the tool tasks_get;
// the client calls it tasks/get, as sellers serve it); WithStatusTool names
// another. The
// interval starts at one second and doubles up to thirty (WithPolling), a
// seller's hint replaces it within those bounds, and the caller's context
// ends the wait.
//
// MCP Tasks (task-augmented tools/call, with the tasks/get and tasks/result
// protocol methods) would move polling into the protocol; the MCP Go SDK
// v1.8 does not support them, so the client polls the AdCP status tool,
// which every seller serves. TaskPoller is the seam: a Transport that
// implements it is used instead of the status tool.
//
// # Webhooks
//
// The client does not add push_notification_config: the request types of
// the tools that accept one have it as a typed field
// (adcp.CreateMediaBuyRequest.PushNotificationConfig), set by the caller
// with the URL of its webhook receiver (runtime/webhook).
//
// # Without generated types
//
// Invoke and WaitTask are the untyped core: a tool by name, the request as
// JSON, the Reply with the status and the payload bytes after the same
// strict checks, for a client that has a Spec but prints JSON.
//
// The package depends on neither SDK nor net/http: a Transport brings the
// bytes.
package buyer
