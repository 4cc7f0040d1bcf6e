// Package runtime is the map of adcpgen's runtime: the AdCP buyer and
// seller, checked against every published conformance vector. It holds no
// code; each job has its own package, bound to the Spec value of the
// package adcpgen generated for your spec version (nothing is global).
//
// Two calls carry most programs. A buyer calls a tool and gets its typed
// answer, strictly decoded from the seller's exact bytes:
// buyer.Call(ctx, c, adcp.Tools.GetProducts, &req) (runtime/buyer, see
// its ExampleCall). A seller registers a typed handler per tool and serves
// it over MCP and A2A: seller.HandleSync(srv, adcp.Tools.GetProducts, fn)
// (runtime/seller, on runtime/mcpserver and runtime/a2aserver). The
// repository's docs/ directory has both as complete programs.
//
// # Shared by both sides
//
//   - wire: strict decoding and encoding of generated types (Unmarshal,
//     UnmarshalExact, Marshal, *DecodeError with its JSON pointer),
//     Nullable, Date and DateTime, and the lenient reader extraction uses.
//     wireimpl holds what only generated code names (descriptors, the
//     version handshake).
//   - registry: Spec, the value each generated package exports for its spec
//     version (tools, error codes and recovery classes, envelopes), and the
//     manifest parser.
//   - release: AdCP's version negotiation at release precision ("3.1",
//     "3.2-beta.5"): parsing, the resolution of a request's adcp_version
//     and adcp_major_version against the releases a seller speaks, and
//     VERSION_UNSUPPORTED's typed details.
//   - task: the task status vocabulary, the typed tool descriptor (Tool)
//     and the typed outcome of a call (Result).
//   - spec: schema trees, protocol bundles, the spec cache and the lock
//     file.
//   - validate: validating payloads against one spec version's schemas.
//   - extract: AdCP's extraction algorithms: data and errors from MCP tool
//     results, JSON-RPC responses, A2A tasks and events and webhooks, and
//     typed decoding (the layer under buyer.Call).
//   - adcperr: the AdCP error (adcp_error), its recovery class and the
//     Action to take.
//   - retry: retrying transient errors within AdCP's retry ceiling.
//   - untrusted: sanitising seller strings and checking seller URLs.
//   - signing: RFC 9421 signed requests and webhooks, both ends (the AdCP
//     profile of each version, signer, the verifier checklist, CallSigner
//     signing a buyer's calls as the seller asks); signing/keys an agent's
//     keys (JWK, JWKS, key pairs, the sources a keyid is resolved with);
//     signing/discovery finds an agent's keys from its operator;
//     signing/replay the (keyid, nonce) ledger, signing/replay/replaytest
//     its conformance suite; signing/revocation revoked keys.
//   - rawrpc: one JSON-RPC response exactly as the peer sent it, which the
//     transports keep so the strict decoders see duplicates and escapes.
//   - observe: the telemetry hook both sides report their operations to
//     (the Observer option of buyer, seller, idempotency, sellertask and
//     webhook's Sender), in AdCP's terms, never with a credential or a
//     payload.
//   - oteladcp (a module of its own): the OpenTelemetry Observer, spans
//     and metrics named per the semantic conventions, and the slog
//     handler that stamps records with their trace; oteladcp/otelenv
//     (another) sets OpenTelemetry's providers from the OTEL_*
//     environment, as the examples start.
//
// # Buyer
//
//   - buyer: the typed client: Call, idempotency keys, safe retries,
//     conversations, polling (WaitForCompletion), request signing.
//   - mcpclient and a2aclient: its transports, on the MCP Go SDK
//     (streamable HTTP, stdio) and a2a-go (JSON-RPC), keeping the seller's
//     bytes.
//   - webhook, receiving: the Receiver verifies a push notification (RFC
//     9421, the AdCP default, or the legacy HMAC-SHA256 the registration
//     asked for), drops redeliveries by idempotency_key and types the
//     payload per task type.
//
// # Seller
//
//   - seller: the typed server (New, Handle, HandleSync), its
//     authentication and request-signature gate, the protocol envelope,
//     the release negotiated on every call and echoed (several releases
//     behind one endpoint: AddRelease, and Bridge to serve one release
//     with another's handlers), and the AdCP errors it sends;
//     seller/rpcerr the JSON-RPC errors under AdCP's reserved codes that
//     infrastructure sends before any tool runs, seller/upstream the AdCP
//     error for a seller's failed upstream call, without leaking it.
//   - mcpserver and a2aserver: the seller on the MCP Go SDK's server
//     (streamable HTTP, stdio) and on a2a-go's JSON-RPC server with its
//     agent card; ResultOf and TaskOf build the MCP tool result and the
//     A2A task every path sends.
//   - sellerhttp: the http.Server to run them behind, with the header,
//     request, write and idle limits a public endpoint needs.
//   - sellertask: async tasks on the store: the version's status tools and
//     push notifications.
//   - sellerstore: the store of idempotency records and tasks, in memory;
//     sellerstore/storetest is its conformance suite, and
//     sellerstore/pgstore (a module of its own) keeps it in PostgreSQL for
//     several replicas.
//   - idempotency: middleware that replays a mutating tool's answer for a
//     repeated idempotency_key and refuses conflicts.
//   - testcontroller: a sandbox's comply_test_controller.
//   - pagination: cursor pagination for list tools.
//   - lifecycle: the legal transitions of media buys, creatives and
//     accounts.
//   - billing: the capability gate on an account's billing party, with
//     each release's code (BILLING_NOT_SUPPORTED from 3.1).
//   - totalbudget: a media buy's total budget (3.2's update_media_buy):
//     scaled over the packages, or checked against their changes.
//   - stale: STALE_RESPONSE, the advisory beside a payload served from
//     cache while an upstream is unreachable (3.1+).
//   - proposal: media plan proposals from get_products to
//     create_media_buy.
//   - sellergov: governance checks before a buy (check_governance).
//   - productfilter: get_products' filters applied to a seller's
//     products as JSON, one code for every release's filters.
//   - formatdecl: canonical format declarations (3.1+): the
//     FORMAT_DECLARATION_DIVERGENT advisory on get_products, and a
//     package's direct canonical selector checked against its product.
//   - provenance: a creative_policy's provenance requirements enforced
//     on sync_creatives (3.1+), first unmet requirement first.
//   - notifyconfig: the webhook subscribers of notification_configs[]
//     (account-level, sync_accounts, 3.1+; agent-level, 3.2+): the rules,
//     declarative replacement, proof of control before activation.
//   - webhook, sending: the Sender signs with RFC 9421 by default (HMAC
//     only when the buyer's push_notification_config asks for it),
//     retries and never posts to internal addresses.
//
// # SDK adapters
//
//   - mcpsdk and a2ago: extraction and typed decoding of what the MCP Go
//     SDK and a2a-go return, and their result and task values, for code
//     that uses the SDKs directly. The other packages depend on neither
//     SDK, apart from the transports above.
package runtime
