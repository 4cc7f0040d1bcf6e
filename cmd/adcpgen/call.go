package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

const callSynopsis = "adcpgen call --agent URL [--transport mcp|a2a] --spec VERSION [--adcp-version R] --tool NAME [--request FILE|-] [--header K=V]... [--signing-key FILE] [--validate] [--wait] [--max-payload BYTES]"

const callDescription = `
Call one tool of a live AdCP agent and print what it answered, read from the
seller's exact bytes as the typed client (runtime/buyer) reads them.

The agent is reached over MCP (streamable HTTP: --agent is the MCP endpoint,
https://seller.example/mcp) or A2A (JSON-RPC: --agent is the URL the agent
card is served under, URL/.well-known/agent-card.json, else at the URL's
origin; or the card's own URL ending in .json). The request is a JSON object
read from --request (a file, or - for stdin; default {}). A tool the spec
says requires an idempotency_key gets a fresh UUID v4 unless the request has
one; the key sent is printed, so the same operation can be sent again with
it. A context_id in the request is sent as is. The call is made once: no
retries (a transient error is printed with its retry_after).

--spec names the spec version the call speaks, resolved as generate --spec
resolves it: a schema tree directory, a protocol bundle .tgz, or a version
("3.0.26") through the spec cache and the lock file. Its tool table (from
its manifest.json, or derived from the schema layout for 2.5.3 and 3.0.0,
which have none and do not say which tools need an idempotency_key) gives
each tool's schemas and idempotency requirement; its error codes, joined with
adcpgen's embedded table of every standard code, classify errors sent without
a recovery. A tool the spec does not list is called all the same, as named.

--adcp-version pins the AdCP release the call asks for (release precision,
versioning.mdx: 3.1, 3.2-beta.5; a patch is not valid on the wire), sent as
adcp_version and, through 3.x, adcp_major_version, unless the request sets
them; default: the --spec version's release (3.0.26 is 3.0). A 3.0 request
gets adcp_version only where its schema admits members it does not declare
(3.0 has no adcp_version). The seller answers in the
release it resolved the pin to and echoes it, or refuses it with
VERSION_UNSUPPORTED listing the releases it speaks.

The seller's payload is checked strictly wherever it arrives (duplicate
keys, "__proto__"/"constructor"/"prototype" keys however escaped, invalid
UTF-8; on A2A the whole envelope): a refused payload is an error naming the
JSON pointer. On success stdout holds one JSON object:

  {"tool", "status", "task_id", "context_id", "message", "idempotency_key",
   "adcp_version", "data"}

status is the AdCP task status (completed, submitted, working,
input-required, auth-required, failed, canceled, rejected); data is the
seller's payload as sent (the tool's response for a final status, its
interim payload otherwise; null when there was none); adcp_version is the
release the seller says it served (its echo; null when it sent none, as a
3.0 seller may); absent members are null. An AdCP error (adcp_error in an MCP tool error, a JSON-RPC error's
data, a failed A2A task) prints instead:

  {"tool", "error", "code", "recovery", "action", "retry_after"}

with error the adcp_error object as sent, recovery its class (transient,
correctable, terminal), action what to do (retry, surface_to_caller,
escalate_to_human) and retry_after whole seconds (rounded up, clamped to
1..3600) or null. Seller strings are printed as sent: treat them as untrusted
data.

--signing-key signs the call with RFC 9421 (AdCP's request-signing profile)
under a private JWK (adcpgen keygen makes one; its kid names the public key
published at the agent's jwks_uri) when the seller asks for it: adcpgen first
reads the seller's get_adcp_capabilities (unsigned) and signs only the
operations its request_signing block lists (and a request registering a
webhook authentication), with the content-digest its covers_content_digest
asks for and the encoding of the --spec version (3.0 and 3.1 unpadded
base64url, 3.2 RFC 8941 base64). A seller refusing the signature answers HTTP
401 with WWW-Authenticate: Signature error="<code>", printed on stderr.

--validate adds "validation": {"schema", "issues"}: the payload's schema
issues against the spec, one {"pointer", "keyword", "message", "schema_id"}
per issue, with the schema chosen by status (the tool's response schema for
a final status, its async response schema for submitted, working and
input-required, core/error.json for an AdCP error; schema null when the spec
has none, and nothing is checked). The payload is checked in the release the
seller echoed: an answer in another release than --spec's cannot be, and is
a failure (give that release's schemas as --spec to check it).

--wait follows a submitted or working task to its end by polling the status
tool the agent lists (tools/list, the agent card's skills): get_task_status
or the tasks/get tool, the spec's own (get_task_status from 3.1, tasks/get
before) when it lists both or the list cannot be read; the first
poll after --poll-interval, each later one twice as late up to 30 s (a
seller's hint replaces it within those bounds), printing each interim status
on stderr. It stops at completed, failed, canceled, rejected, input-required
or auth-required, and at --timeout.

--max-payload caps the seller's payload (MCP structuredContent and each text
item) at BYTES instead of AdCP's 1 MiB (1048576), for an agent known to
answer more; a payload over the cap is refused with an error naming its size
and the cap.

Exit status: 0 the call succeeded (completed, or an interim status); 1 the
seller answered an AdCP error, a failed, canceled or rejected task, a payload
the strict checks refuse, or (with --validate) a payload with schema issues;
2 bad usage, an unusable --spec or --request, or a transport failure (no
connection, an HTTP error without a JSON-RPC answer, --timeout).`

// callFlags are the parsed flags of adcpgen call.
type callFlags struct {
	src       sourceFlags
	agent     string
	transport string
	tool      string
	request   string
	headers   stringList
	validate  bool
	signKey   string
	wait      bool
	timeout   time.Duration
	poll      time.Duration
	maxBytes  int
	// pin is --adcp-version ("" for the --spec release).
	pin string
}

func runCall(e *env, args []string) int {
	fs := newFlagSet("call", callSynopsis, callDescription)
	var f callFlags
	fs.StringVar(&f.agent, "agent", "", "the agent's `URL`: the MCP endpoint, or for A2A where its agent card is served (required)")
	fs.StringVar(&f.transport, "transport", "mcp", "mcp (streamable HTTP) or a2a (JSON-RPC)")
	f.src.register(fs, e, "spec `VERSION` the call speaks: a version, a schema directory or a .tgz bundle (required; also $ADCP_SPEC)")
	fs.StringVar(&f.pin, "adcp-version", "", "the AdCP `R`elease the call pins, sent as adcp_version and adcp_major_version: 3.1, 3.2-beta.5 (default: the --spec version's release)")
	fs.StringVar(&f.tool, "tool", "", "tool (A2A: skill) `NAME`, e.g. get_products (required)")
	fs.StringVar(&f.request, "request", "", "the request, a JSON object: a `FILE`, or - for stdin (default {})")
	fs.Var(&f.headers, "header", "HTTP header `K=V` sent with every request, e.g. 'Authorization=Bearer KEY' (repeatable)")
	fs.BoolVar(&f.validate, "validate", false, "also report the schema issues of the seller's payload against the spec")
	fs.StringVar(&f.signKey, "signing-key", "", "sign the call with RFC 9421 as the seller's request_signing asks, with the private JWK in `FILE`")
	fs.BoolVar(&f.wait, "wait", false, "follow a submitted or working task to its end by polling, progress on stderr")
	fs.DurationVar(&f.timeout, "timeout", 2*time.Minute, "give up after this long, waiting included (0: never)")
	fs.DurationVar(&f.poll, "poll-interval", buyer.DefaultPollInterval, "with --wait, the first wait before polling (doubling up to 30s)")
	fs.IntVar(&f.maxBytes, "max-payload", extract.DefaultPayloadCap, "cap on the seller's payload in `BYTES` (MCP structuredContent and each text item)")
	rest, done, code := parseArgs(e, "call", fs, args)
	if done {
		return code
	}
	if code, ok := f.check(e, rest); !ok {
		return code
	}
	headers, err := parseHeaders(f.headers)
	if err != nil {
		return usageError(e, "call", "%v", err)
	}
	req, err := f.readRequest(e)
	if err != nil {
		return usageError(e, "call", "%v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	tree, err := f.src.resolve(ctx, f.src.spec)
	if err != nil {
		return usageError(e, "call", "%v", err)
	}
	sp, err := callSpec(tree)
	if err != nil {
		fmt.Fprintf(e.stderr, "adcpgen call: spec %s: %v\n", display(f.src.spec), err)
		return exitUsage
	}
	var check *payloadCheck
	if f.validate {
		if check, err = newPayloadCheck(tree, sp, f.tool); err != nil {
			return usageError(e, "call", "--validate: %v", err)
		}
	}
	if _, ok := sp.Tool(f.tool); !ok {
		fmt.Fprintf(e.stderr, "adcpgen call: note: spec %s lists no tool %q; calling it as named\n", sp.Version(), f.tool)
	}
	if req, err = f.withPin(tree, sp, req); err != nil {
		return usageError(e, "call", "%v", err)
	}

	clientOpts := []buyer.ClientOption{buyer.WithoutRetries(), buyer.WithPolling(buyer.Polling{Interval: f.poll}), buyer.WithMaxPayload(f.maxBytes)}
	var signer *signing.CallSigner
	if f.signKey != "" {
		if signer, err = callSigner(f.signKey, sp.Version()); err != nil {
			return usageError(e, "call", "--signing-key: %v", err)
		}
		clientOpts = append(clientOpts, buyer.WithRequestSigning(signer))
	}
	transport, closeTransport, err := dialAgent(ctx, f.transport, f.agent, headerClient(headers, signer))
	if err != nil {
		fmt.Fprintf(e.stderr, "adcpgen call: %v\n", err)
		return exitUsage
	}
	defer closeTransport(ctx)
	client, err := buyer.New(sp, transport, clientOpts...)
	if err != nil {
		fmt.Fprintf(e.stderr, "adcpgen call: %v\n", err)
		return exitUsage
	}
	var opts []buyer.CallOption
	if f.wait {
		opts = append(opts, buyer.WaitForCompletion(), buyer.OnProgress(progressPrinter(e, f.tool)))
	}
	out, err := client.Invoke(ctx, f.tool, req, opts...)
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("%w (--timeout %s)", err, f.timeout)
	}
	if err != nil {
		return reportCallError(e, f.tool, err, check)
	}
	return reportOutcome(e, out, check)
}

// check validates the flags; ok is false with the exit code when they are
// unusable.
func (f *callFlags) check(e *env, rest []string) (int, bool) {
	switch {
	case len(rest) > 0:
		return usageError(e, "call", "unexpected argument %q", rest[0]), false
	case f.agent == "":
		return usageError(e, "call", "missing --agent URL"), false
	case f.src.spec == "":
		return usageError(e, "call", "missing --spec VERSION (a version, a schema directory or a .tgz bundle; or set $ADCP_SPEC)"), false
	case f.tool == "":
		return usageError(e, "call", "missing --tool NAME"), false
	case f.transport != "mcp" && f.transport != "a2a":
		return usageError(e, "call", "unknown --transport %q (want mcp or a2a)", f.transport), false
	case f.timeout < 0:
		return usageError(e, "call", "--timeout %s is negative", f.timeout), false
	case f.poll <= 0:
		return usageError(e, "call", "--poll-interval %s is not positive", f.poll), false
	case f.maxBytes <= 0:
		return usageError(e, "call", "--max-payload %d is not positive", f.maxBytes), false
	}
	u, err := url.Parse(f.agent)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError(e, "call", "--agent %q is not an http:// or https:// URL", f.agent), false
	}
	return 0, true
}

// readRequest reads --request: one JSON object, strictly checked (the
// pointer of a duplicate or prototype key is named), and a valid
// idempotency_key when it carries one.
func (f *callFlags) readRequest(e *env) (json.RawMessage, error) {
	if f.request == "" {
		return json.RawMessage(`{}`), nil
	}
	data, err := readPayload(e, f.request, 16<<20)
	if err != nil {
		return nil, fmt.Errorf("--request: %w", err)
	}
	name := displayName(f.request)
	if len(data) > 16<<20 {
		return nil, fmt.Errorf("--request %s: larger than 16 MiB", name)
	}
	if err := wire.Valid(data); err != nil {
		return nil, fmt.Errorf("--request %s: %w", name, err)
	}
	v, err := wire.ParseLenient(data)
	if err != nil || !v.IsObject() {
		return nil, fmt.Errorf("--request %s: want a JSON object", name)
	}
	if key := v.Get("idempotency_key"); key.Present() {
		s, ok := key.AsString()
		if !ok {
			return nil, fmt.Errorf("--request %s: /idempotency_key: want a string", name)
		}
		if err := buyer.CheckIdempotencyKey(s); err != nil {
			return nil, fmt.Errorf("--request %s: /idempotency_key: %w", name, err)
		}
	}
	return data, nil
}

// progressPrinter reports each interim state of an awaited task on stderr.
func progressPrinter(e *env, tool string) func(*buyer.Reply) {
	polls := -1
	return func(o *buyer.Reply) {
		polls++
		var b strings.Builder
		fmt.Fprintf(&b, "adcpgen call: %s: task %s %s", tool, untrusted.SanitizeTruncate(o.TaskID, 128), untrusted.SanitizeTruncate(string(o.Status), 64))
		if polls > 0 {
			fmt.Fprintf(&b, " (poll %d)", polls)
		}
		if m := untrusted.SanitizeTruncate(o.Message, 256); m != "" {
			fmt.Fprintf(&b, ": %s", m)
		}
		if polls == 0 {
			b.WriteString("; waiting")
		}
		fmt.Fprintln(e.stderr, b.String())
	}
}

// reportOutcome prints an answer and returns the exit status its status
// and (with --validate) its schema issues call for.
func reportOutcome(e *env, out *buyer.Reply, check *payloadCheck) int {
	res := callResult{Tool: out.Tool, Status: string(out.Status), TaskID: optional(out.TaskID), ContextID: optional(out.ContextID),
		Message: optional(out.Message), IdempotencyKey: optional(out.IdempotencyKey), Release: optional(out.Release), Data: out.Data}
	code := exitOK
	switch out.Status {
	case task.Failed, task.Canceled, task.Rejected:
		code = exitFailure
	}
	if check != nil {
		v, note, err := check.outcome(out)
		if err != nil {
			fmt.Fprintf(e.stderr, "adcpgen call: --validate: %v\n", err)
			return exitFailure
		}
		if note != "" {
			fmt.Fprintf(e.stderr, "adcpgen call: --validate: %s\n", note)
		}
		res.Validation = v
		if len(v.Issues) > 0 {
			code = exitFailure
		}
	}
	if err := writeJSON(e, res); err != nil {
		return exitUsage
	}
	return code
}

// reportCallError prints a failed call: the AdCP error as JSON on stdout,
// anything else as one line on stderr. Transport failures exit 2, the
// rest 1.
func reportCallError(e *env, tool string, err error, check *payloadCheck) int {
	var ae *adcperr.Error
	if errors.As(err, &ae) {
		raw := ae.Raw
		if raw == nil {
			raw, _ = ae.WireJSON()
		}
		res := callError{Tool: tool, Error: raw, Code: ae.Code, Recovery: string(ae.Recovery), Action: string(ae.Action())}
		if ae.Action() == adcperr.ActionRetry && ae.RetryAfter > 0 {
			s := int64(ae.RetryAfter / time.Second)
			res.RetryAfter = &s
		}
		if check != nil {
			v, note, verr := check.adcpError(raw)
			switch {
			case verr != nil:
				fmt.Fprintf(e.stderr, "adcpgen call: --validate: %v\n", verr)
			case note != "":
				fmt.Fprintf(e.stderr, "adcpgen call: --validate: %s\n", note)
			}
			res.Validation = v
		}
		fmt.Fprintf(e.stderr, "adcpgen call: %s: %v\n", tool, ae)
		if writeJSON(e, res) != nil {
			return exitUsage
		}
		return exitFailure
	}
	if errors.Is(err, extract.ErrTooLarge) {
		err = fmt.Errorf("%w (--max-payload raises the cap)", err)
	}
	fmt.Fprintf(e.stderr, "adcpgen call: %v\n", err)
	if transportFailure(err) {
		return exitUsage
	}
	return exitFailure
}

// transportFailure reports an error that got no answer from the seller:
// the connection or HTTP exchange failed, or the time ran out.
func transportFailure(err error) bool {
	var te *buyer.TransportError
	return errors.As(err, &te) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.Is(err, rawrpc.ErrNoResponse)
}
