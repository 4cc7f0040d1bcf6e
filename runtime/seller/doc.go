// Package seller is the AdCP agent's side: a typed server for the tools of
// one spec version, and what every transport sends: the Answer (which
// runtime/mcpserver and runtime/a2aserver put on the wire), reserved
// JSON-RPC errors, AdCP errors from upstream failures.
//
// # The server
//
// New takes the Spec of your generated package; Handle (or HandleSync)
// registers a typed handler per tool descriptor of that package
// (runtime/buyer's ExampleCall serves one and calls it as a buyer does).
//
// runtime/mcpserver and runtime/a2aserver put the same server on MCP (the
// official Go SDK) and A2A (a2a-go). Whatever the transport, Serve does the
// protocol's part so handlers cannot get it wrong:
//
//   - Arguments are read from the buyer's own bytes, strictly: over the size
//     cap, bad JSON, a duplicate key, "__proto__" however escaped, a wrong
//     type, a missing field or a schema violation (with Options.Schemas) get a
//     correctable INVALID_REQUEST with issues[] (pointer, keyword, message)
//     and field, and the handler never runs. A transport's gate refuses a
//     body over the cap (HTTP 413), one that is not JSON, not a JSON-RPC
//     request object (a JSON-RPC batch included: Admit judges one by its
//     strictest call, and no batch runs), or whose params are not an
//     object (400) before any SDK reads it, with a JSON-RPC error carrying
//     the same AdCP error (ReadRPCBody, CheckRPCBody).
//   - The release is negotiated on every call (versioning.mdx; the rules
//     are runtime/release's): the buyer's adcp_version and
//     adcp_major_version resolve to the release the server speaks (its
//     Spec's, 3.0.26 being 3.0) or to another release AddRelease put
//     behind the same endpoint, whose server then answers; anything else
//     is VERSION_UNSUPPORTED with the endpoint's releases in its details.
//     Every answer, errors included, echoes the release served as
//     adcp_version, and get_adcp_capabilities lists every release in
//     adcp.supported_versions. See releases.go.
//   - The protocol envelope is the framework's: status, task_id, message,
//     context_id and replayed are written into the response from the
//     Result and the task, as the Spec says of the payload's schema
//     (registry.Envelope; 3.1 and later require status on every response).
//     A handler leaves them empty; one that sets another value has its
//     answer refused (EnvelopeError, logged). See envelope.go.
//   - The request's context object is echoed, byte for byte, in every
//     answer and every error.
//   - A handler's *adcperr.Error goes out as it is (with the spec's recovery
//     when it has none). Any other error, and a panic, is logged to
//     Options.Logger and the buyer gets a transient SERVICE_UNAVAILABLE that
//     says nothing of it; the server goes on serving.
//   - Responses are encoded with the strict encoder; with
//     Options.ValidateResponses a response that fails the version's schema is
//     never sent (the buyer gets SERVICE_UNAVAILABLE, the logger the issues).
//   - Tools that are not registered are not served; get_adcp_capabilities is
//     answered from what is registered (Options.Capabilities completes it)
//     unless the seller registers its own.
//   - Credentials are checked before anything is read (Authorize): discovery
//     tools may be public (DefaultPublicTools); everything else is refused
//     with HTTP 401 and a WWW-Authenticate challenge. The principal reaches
//     handlers (PrincipalFrom) and middleware (Call.Principal).
//
// # Extension points
//
//   - Middleware runs around every call after it was read and validated,
//     with the raw request (Call.Arguments, Call.Canonical, Call.Member) and
//     the principal, and may answer instead of the handler: the
//     idempotency layer plugs in here and stores and replays Answers.
//   - TaskManager keeps async tasks. A handler calls StartTask, answers an
//     interim status (Submitted, Working, InputRequired) with its typed
//     payload, and reports later through the TaskHandle (Working, Complete,
//     Fail); the TaskManager records each update and may deliver it by
//     webhook. Without one a server keeps its tasks in its own memory (a
//     day after each ends); runtime/sellertask's Manager is the one to
//     set. Tasks are scoped by principal. With a TaskManager on a store
//     replicas share (runtime/sellertask on sellerstore/pgstore), any
//     replica reports on any task: OpenTask returns its handle and the
//     request that started it, which is also how a task whose replica died
//     is taken over.
//   - HandleRaw serves a tool without generated types (the status tools
//     tasks/get, get_task_status), still read strictly and validated; a
//     raw tool whose protocol answers invalid input in its own response
//     shape (comply_test_controller) takes the schema issues itself
//     (RawTool.OwnsSchemaIssues, Call.SchemaIssues).
//   - SetCapability adds a member to the automatic get_adcp_capabilities
//     answer, computed when it is made: how a framework piece declares
//     what it serves (runtime/testcontroller's compliance_testing).
//   - Authenticator checks credentials: APIKeys for static bearer keys,
//     runtime/mcpserver's OAuth for OAuth 2.0, or your own.
//
// # Builders
//
// An Answer is what every transport sends: runtime/mcpserver's ResultOf
// builds its MCP tool result and runtime/a2aserver's TaskOf its A2A task,
// for seller.Server and for a seller written on go-sdk or a2a-go alike, so
// every path answers the same bytes. ErrorAnswer builds an answer holding
// an AdCP error (ExampleErrorAnswer); runtime/seller/rpcerr the reserved
// JSON-RPC errors (the transports' gates and runtime/mcpsdk use it);
// runtime/seller/upstream AdCP errors from upstream failures without
// leaking upstream detail. Set an error's Recovery: the standard class of a
// code is what your generated package's Spec says
// (adcp.Spec().Recovery(code)). An error without one is sent without
// recovery, and buyers classify it by code.
package seller
