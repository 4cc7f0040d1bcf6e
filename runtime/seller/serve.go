package seller

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Serve answers one call of the tool named name; transports call it with
// the arguments as received. c.Arguments, c.Principal, c.Signer,
// c.Transport and c.ContextID are the transport's; Serve sets the rest. In order:
//
//   - a tool that no release of the endpoint serves is answered with
//     UNSUPPORTED_FEATURE;
//   - the call's release is resolved from its adcp_version and
//     adcp_major_version (runtime/release): a release the endpoint does not
//     speak, a malformed value or two that disagree are VERSION_UNSUPPORTED
//     with the endpoint's releases in its details, and the call goes on in
//     the server of the release it resolved to (AddRelease), c.Release
//     naming it;
//   - arguments over the size cap, that are not one strict JSON object
//     (bad JSON, a duplicate key, "__proto__" however escaped, invalid
//     UTF-8, nesting over 512), that fail the request schema, or that the
//     strict decoder refuses are answered with a correctable
//     INVALID_REQUEST saying where (issues[] with pointer, keyword and
//     message for schema violations), and no handler runs;
//   - the middleware and then the handler run with the principal (and the
//     verified signer) in ctx;
//     a panic anywhere in them is logged and answered with a transient
//     SERVICE_UNAVAILABLE, and the server goes on serving;
//   - the request's context object is echoed in the answer, error or not,
//     and the release served as adcp_version (Answer.Release).
//
// Serve never returns nil, and the answer's Body (when set) or Error is
// always fit to send.
func (s *Server) Serve(ctx context.Context, name string, c *Call) *Answer {
	c.srv = s
	c.ctx = ctx
	r, refusal := s.route(c, name)
	if s.obs == nil {
		if refusal != nil {
			return refusal
		}
		e, chain := r.lookup(name)
		return r.serve(ctx, name, c, e, chain)
	}
	op := s.callOp(c, s.anyEntry(name))
	if r != nil {
		op.Release = r.spec.Version()
	}
	ctx, end := s.obs.Start(ctx, op)
	a := refusal
	if a == nil {
		e, chain := r.lookup(name)
		a = r.serve(ctx, name, c, e, chain)
	}
	endCall(op, a)
	end()
	return a
}

// serve is Serve once the call is routed to the server of its release
// and the tool looked up.
func (s *Server) serve(ctx context.Context, name string, c *Call, e *entry, chain Dispatch) *Answer {
	c.srv = s
	c.ctx = ctx
	if e == nil {
		c.Tool.Name = name
		return s.finish(c, ErrorAnswer(s.newError(s.pickCode("UNSUPPORTED_FEATURE", "INVALID_REQUEST"),
			fmt.Sprintf("This agent does not serve the tool %q", truncateName(name)))))
	}
	c.Tool, c.entry = e.tool, e
	if a := s.read(ctx, c); a != nil {
		return s.finish(c, a)
	}
	ctx = WithPrincipal(ctx, c.Principal)
	if c.Signer != nil {
		ctx = WithSigner(ctx, c.Signer)
	}
	ctx = context.WithValue(ctx, callKey{}, c)
	return s.finish(c, s.dispatch(ctx, chain, c))
}

// dispatch runs the middleware chain and the handler, turning a panic into
// a transient error.
func (s *Server) dispatch(ctx context.Context, chain Dispatch, c *Call) (a *Answer) {
	defer func() {
		if p := recover(); p != nil {
			s.log.ErrorContext(ctx, "adcp: handler panicked", "tool", c.Tool.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			a = ErrorAnswer(s.internalError())
		}
	}()
	a = chain(ctx, c)
	if a == nil {
		s.log.ErrorContext(ctx, "adcp: middleware returned no answer", "tool", c.Tool.Name)
		a = ErrorAnswer(s.internalError())
	}
	return a
}

// runEntry is the innermost Dispatch: the tool's handler.
func (s *Server) runEntry(ctx context.Context, c *Call) *Answer {
	if c.entry == nil {
		return ErrorAnswer(s.internalError())
	}
	if s.obs == nil {
		return c.entry.run(ctx, c)
	}
	op := &observe.Op{Kind: observe.RunHandler, Tool: c.Tool.Name}
	ctx, end := s.obs.Start(ctx, op)
	var a *Answer
	defer func() {
		// A panic ends the span too; dispatch answers it.
		if a != nil {
			op.Status = string(a.Status)
			if a.Error != nil {
				op.Code, op.Recovery = a.Error.Code, string(a.Error.Recovery)
			}
		} else {
			op.Status = string(task.Failed)
		}
		end()
	}()
	a = c.entry.run(ctx, c)
	return a
}

// finish makes a copy of a fit to send: status set, the error's recovery
// filled in and checked, the protocol envelope's members filled in, the
// request's context echoed.
func (s *Server) finish(c *Call, a *Answer) *Answer {
	out := *a
	ctxObj := c.Context()
	if out.Release == "" {
		out.Release = c.Release
	}
	if out.Error != nil {
		out.Body = nil
		out.Error = s.sendable(c, out.Error)
		if out.Status == "" || !out.Status.Final() {
			out.Status = task.Failed
		}
		out.Context = ctxObj
		return &out
	}
	if out.Status == "" {
		out.Status = task.Completed
	}
	if !wire.Lenient(out.Body).IsObject() {
		s.log.ErrorContext(c.logContext(), "adcp: answer without a JSON object body", "tool", c.Tool.Name, "status", string(out.Status))
		return s.finish(c, ErrorAnswer(s.internalError()))
	}
	// Answers middleware made (a replay) or a raw handler wrote get the
	// envelope's members they lack, and the request's context; a typed
	// handler's have both already, from the same values (filled), and are
	// sent as they are.
	if out.ContextID == "" {
		out.ContextID = c.echoedContextID()
	}
	v := envelopeValues{status: string(out.Status), taskID: out.TaskID, message: out.Message, contextID: out.ContextID, replayed: out.Replayed, version: out.Release}
	if f := out.filled; f != nil && f.v == v && out.echoed == c && sameBytes(f.body, out.Body) {
		if out.Message == "" {
			out.Message = f.message
		}
		return &out
	}
	var echo []byte
	if out.echoed != c {
		echo = ctxObj
	}
	body, message, err := fillEnvelope(c.Tool.Name, out.Body, c.Tool.EnvelopeFor(string(out.Status)), v, false, echo)
	if err != nil {
		s.log.ErrorContext(c.logContext(), "adcp: answer not sent", "tool", c.Tool.Name, "err", err.Error())
		return s.finish(c, ErrorAnswer(s.internalError()))
	}
	out.Body = body
	if out.Message == "" {
		out.Message = message
	}
	out.echoed, out.filled = c, nil
	return &out
}

// sameBytes reports whether a and b are the same bytes in memory (not
// merely equal).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// sendable returns e with the spec's recovery when it has none, or an
// internal error (logged) when e cannot be sent as it is.
func (s *Server) sendable(c *Call, e *adcperr.Error) *adcperr.Error {
	if e.Recovery == "" && len(e.Raw) == 0 {
		cp := *e
		cp.Recovery, _ = s.spec.Recovery(e.Code)
		if cp.Recovery == "" {
			cp.Recovery = s.spec.UnknownRecovery()
		}
		e = &cp
	}
	if _, err := e.WireJSON(); err != nil {
		s.log.ErrorContext(c.logContext(), "adcp: error cannot be sent", "tool", c.Tool.Name, "err", err.Error())
		return s.internalError()
	}
	return e
}

// internalError is what the buyer learns of a failure on the seller's side:
// a transient SERVICE_UNAVAILABLE with no detail.
func (s *Server) internalError() *adcperr.Error {
	return s.newError("SERVICE_UNAVAILABLE", "Service temporarily unavailable")
}

// truncateName bounds and cleans a buyer-sent tool name quoted in a message.
func truncateName(name string) string { return untrusted.SanitizeTruncate(name, 64) }
