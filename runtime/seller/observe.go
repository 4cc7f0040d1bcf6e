package seller

import (
	"context"
	"net/http"

	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// callOp is the Op of a call Serve (or Refuse) answers: the tool when it
// is served (a name the buyer made up is no attribute), the transport, the
// release, the caller's trace context and the verdict on its signature.
func (s *Server) callOp(c *Call, e *entry) *observe.Op {
	op := &observe.Op{Kind: observe.ServeCall, Transport: c.Transport, Release: s.spec.Version(), Peer: observe.PeerOf(c.Meta, c.Header)}
	if e != nil {
		op.Tool = e.tool.Name
	}
	if s.verifier != nil {
		op.Signature = "unsigned"
		if c.Signer != nil {
			op.Signature = "verified"
		}
	}
	return op
}

// endCall sets the outcome of a call's Op from its answer.
func endCall(op *observe.Op, a *Answer) {
	op.Status, op.Replayed = string(a.Status), a.Replayed
	if a.Error != nil {
		op.Code, op.Recovery = a.Error.Code, string(a.Error.Recovery)
	}
}

// read is readRequest, observed as ValidateRequest.
func (s *Server) read(ctx context.Context, c *Call) *Answer {
	if s.obs == nil {
		return s.readRequest(c)
	}
	op := &observe.Op{Kind: observe.ValidateRequest, Tool: c.Tool.Name}
	_, end := s.obs.Start(ctx, op)
	a := s.readRequest(c)
	if a != nil {
		op.Status = string(task.Failed)
		if a.Error != nil {
			op.Code, op.Recovery = a.Error.Code, string(a.Error.Recovery)
		}
	}
	end()
	return a
}

// decide runs the verifier on an HTTP request, observed as
// VerifySignature.
func (s *Server) decide(r *http.Request, body []byte, tool string, mode signing.Mode, fallback bool) signing.Decision {
	msg := signing.MessageFromRequest(r, body, s.cfg.SignedRequests.Scheme)
	if s.obs == nil {
		return s.verifier.Decide(r.Context(), msg, mode, fallback)
	}
	op := &observe.Op{Kind: observe.VerifySignature, Peer: observe.PeerOf(nil, r.Header)}
	if s.Serves(tool) {
		op.Tool = tool
	}
	ctx, end := s.obs.Start(r.Context(), op)
	d := s.verifier.Decide(ctx, msg, mode, fallback)
	op.Outcome, op.Code = verdict(d), string(signing.CodeOf(d.Err))
	if d.Verdict == signing.Fail {
		op.Err = d.Err
	}
	end()
	return d
}

// verdict names a signature decision for telemetry.
func verdict(d signing.Decision) string {
	switch d.Verdict {
	case signing.Accept:
		if d.Signer != nil {
			return "verified"
		}
		return "unsigned"
	case signing.AcceptWithWarning:
		return "warned"
	case signing.Unauthenticated:
		// The call rests on the authenticator: a failed signature there is
		// one a warn_for call may carry.
		if d.Err == nil {
			return "unsigned"
		}
		return "warned"
	case signing.Fail:
		return "unavailable"
	}
	return "refused"
}
