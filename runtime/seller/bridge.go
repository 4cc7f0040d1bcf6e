package seller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// A seller writes a tool once where releases agree. Bridge serves, in one
// release, the tools a server of another release serves with its typed
// handlers, converting by the wire: the buyer's request, read and
// validated as the served release's, is read again as the handler's
// release's request (its schema and strict decoder); the handler's typed
// payload, encoded, is read as the served release's payload type, then
// completed and validated as any answer of that release. Both generated
// packages describe their types to the same engine, so what maps
// mechanically (the same members, under the same names, of compatible
// types: most of AdCP's 3.x, whose releases only add) maps with no code,
// and what does not is refused with the JSON pointer where it breaks,
// never sent: the buyer gets UNSUPPORTED_FEATURE for a request the handler
// cannot take and SERVICE_UNAVAILABLE for an answer the served release
// cannot carry, and the logger says which tool and where, so that the
// author writes a Shim there, or a handler of that release for a tool
// that differs (registered before Bridge, it is kept).
//
// Conversions between two generated packages are not generated: generated
// code imports only the runtime, never another generated package, and the
// wire conversion costs no code to compile, checks exactly what the
// strict decoders check, and changes nothing when a release renames a
// Go type. adcpgen diff lists what changed between two releases; the
// bridge's refusals name what does not map in the payloads sent.

// Shim adapts what does not map mechanically between two releases' payloads
// of one tool (see Bridge). Each function gets JSON and returns JSON, which
// the bridge then reads strictly; nil leaves that direction mechanical.
type Shim struct {
	// Request rewrites the buyer's arguments (an object of the served
	// release, valid against its request schema) into the handler's
	// release, before they are validated and decoded as that release's
	// request. An error refuses the call with UNSUPPORTED_FEATURE saying
	// it.
	Request func(args json.RawMessage) (json.RawMessage, error)
	// Response rewrites the handler's payload for status (its release's,
	// encoded, without the envelope members the framework fills) into the
	// served release's, before it is read as that release's payload type,
	// completed and validated. An error is logged and the buyer gets
	// SERVICE_UNAVAILABLE.
	Response func(status task.Status, payload json.RawMessage) (json.RawMessage, error)
	// Complete, when set, runs before Response with the served release's
	// call (the buyer's request as sent, in that release), for an answer
	// whose served-release form depends on the request beyond what the
	// handler's release could read (a member only that release's request
	// has). It gets the handler's payload as Response does and returns it
	// with what it adds, which Response then adapts as the rest; an error
	// is handled as Response's.
	Complete func(c *Call, status task.Status, payload json.RawMessage) (json.RawMessage, error)
	// OwnsIssues, when set, takes the served release's request-schema
	// violations it accepts (by JSON pointer) from the framework: a call
	// whose every violation it accepts is not refused but handed on, the
	// violations in Call.SchemaIssues, to a handler that answers them
	// per item (sync_accounts' per-account failures). Such a call skips
	// the served release's strict decode; the handler's release still
	// reads the mapped arguments strictly.
	OwnsIssues func(pointer string) bool
}

// bridge is what a bridged entry needs: the server and entry of the
// handler's release, and the tool's shim.
type bridge struct {
	from  *Server
	entry *entry
	shim  Shim
}

// bridged is the link from a call in the handler's release to the call it
// answers in the served release.
type bridged struct {
	to   *Server // the served release's server
	call *Call   // the served release's call
	shim Shim
}

// Bridge serves on s, in s's release, every tool from serves (a server of
// another release, with its handlers) that s's spec has too and s does not
// serve itself, converting requests and answers by the wire as described
// above; shims adapt what does not map, by tool name. Register s's own
// handlers for tools that differ first: Bridge keeps them. Tools of from
// that s's spec lacks are left out (listed in the error), and so are the
// status tools, which each release serves itself (sellertask's
// ServeStatusTools). Capability blocks from's framework pieces declared
// (SetCapability) join s's automatic capabilities where s has none of
// that name.
//
// A handler bridged so runs with the call in its own release (CallFrom
// gives it, its Tool and Release saying which release the buyer is
// served in through it); a task it starts answers, now and when
// reopened (OpenTask), in the served release. Call Bridge before serving;
// from must have its handlers registered by then.
func (s *Server) Bridge(from *Server, shims map[string]Shim) error {
	if from == nil || from == s {
		return errors.New("seller: Bridge needs the server of another release")
	}
	from.mu.RLock()
	entries := make(map[string]*entry, len(from.tools))
	for name, e := range from.tools {
		entries[name] = e
	}
	fromBlocks := make(map[string]func() json.RawMessage, len(from.blocks))
	for name, b := range from.blocks {
		fromBlocks[name] = b
	}
	from.mu.RUnlock()
	var missing []string
	for name, he := range entries {
		if he.auto || he.bridge != nil || statusTool(name) || s.Serves(name) {
			continue
		}
		t, ok := s.spec.Tool(name)
		if !ok {
			if !he.raw {
				missing = append(missing, name)
				continue
			}
			// A raw tool of no manifest (a framework piece's): served with
			// its own schema paths where this release's tree has them.
			t = registry.Tool{Name: name, Summary: he.tool.Summary, RequestSchema: s.schemaIfPresent(he.tool.RequestSchema),
				ResponseSchema: s.schemaIfPresent(he.tool.ResponseSchema)}
		}
		if he.raw {
			t.Mutating, t.IdempotencyRequired = he.tool.Mutating || t.Mutating, he.tool.IdempotencyRequired || t.IdempotencyRequired
		}
		b := &bridge{from: from, entry: he, shim: shims[name]}
		e := &entry{tool: t, raw: he.raw, ownsIssues: he.ownsIssues, bridge: b, decode: decoderOf(t)}
		if he.raw {
			e.decode = nil
			if from.Public(name) {
				s.mu.Lock()
				s.public[name] = true
				s.mu.Unlock()
			}
		}
		e.run = func(ctx context.Context, c *Call) *Answer { return s.runBridged(ctx, c, b) }
		s.register(e)
	}
	for name, block := range fromBlocks {
		s.mu.RLock()
		_, has := s.blocks[name]
		s.mu.RUnlock()
		if !has {
			s.SetCapability(name, block)
		}
	}
	for name := range shims {
		if _, ok := entries[name]; !ok {
			return fmt.Errorf("seller: Bridge: a shim for %s, which the server of %s does not serve", name, from.spec.Version())
		}
	}
	if len(missing) > 0 {
		return &BridgeError{From: from.spec.Version(), To: s.spec.Version(), Tools: missing}
	}
	return nil
}

// BridgeError lists the tools Bridge left out: the handler's release
// serves them, the served release has no such tool.
type BridgeError struct {
	From, To string
	Tools    []string
}

func (e *BridgeError) Error() string {
	return fmt.Sprintf("seller: Bridge from %s to %s: %d tools the served release does not have, left out: %v", e.From, e.To, len(e.Tools), e.Tools)
}

// statusTool reports the status tools every release serves itself.
func statusTool(name string) bool {
	switch name {
	case "tasks/get", "get_task_status", "list_tasks", "tasks_get":
		return true
	}
	return false
}

// schemaIfPresent is path when s's tree has it, else "".
func (s *Server) schemaIfPresent(path string) string {
	if path == "" || s.cfg.Schemas == nil {
		return ""
	}
	if _, err := fs.Stat(s.cfg.Schemas.FS, path); err != nil {
		return ""
	}
	return path
}

// decoderOf reads arguments strictly into a tool's request type (none
// when the spec gives it none).
func decoderOf(t registry.Tool) func([]byte) (any, error) {
	if t.NewRequest == nil {
		return nil
	}
	return func(args []byte) (any, error) {
		v := t.NewRequest()
		return v, wire.Unmarshal(args, v)
	}
}

// runBridged answers c, a call in s's release, with the handler of the
// other release: the call is read again as that release's (the shim's
// Request first), its handler runs with that call, and what it answers is
// converted back (handlerCall and encodePayload).
func (s *Server) runBridged(ctx context.Context, c *Call, b *bridge) *Answer {
	hc := b.handlerCall(s, c)
	if a := b.from.readRequest(hc); a != nil {
		return s.unmapped(c, b, a)
	}
	hc.issues = c.issues
	ctx = context.WithValue(ctx, callKey{}, hc)
	if b.entry.raw {
		// A raw answer has no types to convert: it is completed and
		// checked as this release's.
		return s.rawAnswer(c, b.entry.rawHandler(ctx, hc))
	}
	a := b.entry.run(ctx, hc)
	if a == nil {
		return ErrorAnswer(s.internalError())
	}
	if a.echoed == hc {
		cp := *a
		cp.echoed = c
		a = &cp
	}
	return a
}

// handlerCall is c as a call in the handler's release, bridged back to c.
func (b *bridge) handlerCall(to *Server, c *Call) *Call {
	return &Call{Tool: b.entry.tool, Arguments: c.Arguments, Principal: c.Principal, Signer: c.Signer, Transport: c.Transport,
		ContextID: c.ContextID, Header: c.Header, Meta: c.Meta, Release: c.Release, args: c.args, entry: b.entry, started: c.started, srv: b.from, ctx: c.ctx,
		bridged: &bridged{to: to, call: c, shim: b.shim}}
}

// unmapped is the answer to a request the handler's release refused: the
// served release accepted it, so it is this seller's gap (logged), and
// the buyer gets UNSUPPORTED_FEATURE saying where.
func (s *Server) unmapped(c *Call, b *bridge, refusal *Answer) *Answer {
	if refusal.Error == nil || (refusal.Error.Code != "INVALID_REQUEST" && refusal.Error.Code != "VALIDATION_ERROR") {
		return refusal
	}
	s.log.ErrorContext(c.logContext(), "adcp: request does not map to the handler's release (write a Shim's Request, or a handler of this release)",
		"tool", c.Tool.Name, "release", c.Release, "handler_release", b.from.Release(), "err", refusal.Error.Message)
	e := s.newError(s.pickCode("UNSUPPORTED_FEATURE", "INVALID_REQUEST"),
		truncateText(fmt.Sprintf("This agent cannot serve this %s request in AdCP %s: %s", c.Tool.Name, c.Release, refusal.Error.Message), 512))
	e.Field, e.Issues = refusal.Error.Field, refusal.Error.Issues
	return ErrorAnswer(e)
}

// convert turns a handler's payload (a value of the handler's release, or
// nil) for the answer v describes into the served release's value:
// encoded, passed through the shim, given the protocol envelope's members
// the served release's schema has for it (the framework's: the handler's
// release may have none, as 3.0 has no status on most responses), read
// strictly as the served release's type. An interim status the served
// release gives no payload type is an empty payload.
func (br *bridged) convert(v envelopeValues, p any) (any, error) {
	status := task.Status(v.status)
	body, err := encodeValue(p, status.Interim())
	if err != nil {
		return nil, err
	}
	if br.shim.Complete != nil {
		if body, err = br.shim.Complete(br.call, status, body); err != nil {
			return nil, fmt.Errorf("the shim: %w", err)
		}
	}
	if br.shim.Response != nil {
		if body, err = br.shim.Response(status, body); err != nil {
			return nil, fmt.Errorf("the shim: %w", err)
		}
	}
	t := br.call.Tool
	if body, _, err = fillEnvelope(t.Name, body, t.EnvelopeFor(v.status), v, false, nil); err != nil {
		return nil, err
	}
	newv := t.NewResponse
	if status.Interim() {
		newv = nil
		if a, ok := t.AsyncFor(string(status)); ok {
			newv = a.New
		}
	}
	if newv == nil {
		if status.Interim() {
			return nil, nil
		}
		return nil, fmt.Errorf("AdCP %s has no response type for %s", br.call.Release, t.Name)
	}
	out := newv()
	if err := wire.Unmarshal(body, out); err != nil {
		return nil, &MapError{Tool: t.Name, Release: br.call.Release, Err: err}
	}
	return out, nil
}

// MapError is a handler's payload the served release cannot carry (see
// Bridge): the strict decoder of that release refused it, at Err's JSON
// pointer. It is logged, never sent.
type MapError struct {
	Tool, Release string
	Err           error
}

func (e *MapError) Error() string {
	return fmt.Sprintf("%s: the handler's payload does not map to AdCP %s (write a Shim's Response, or a handler of this release): %v", e.Tool, e.Release, e.Err)
}

func (e *MapError) Unwrap() error { return e.Err }
