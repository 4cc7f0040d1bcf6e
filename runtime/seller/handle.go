package seller

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller/upstream"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Handle serves tool (a descriptor of your generated package, such as
// adcp.Tools.CreateMediaBuy) with h. h gets the request decoded strictly
// and valid, and returns the tool's Result: the response (Status Completed,
// or Failed for a response that reports failure), or an interim status
// with its typed payload and the task's id (StartTask), or an error.
//
// An error that is an *adcperr.Error (errors.As) is sent as it is, with
// the spec's recovery class when it has none. Any other error is logged and
// the buyer gets a transient SERVICE_UNAVAILABLE that says nothing of it
// (a *upstream.Failure 429 becomes RATE_LIMITED, see upstream.Translate),
// with retry_after when the error has a RetryAfter() time.Duration method
// (a store that cannot be reached: sellerstore.OutageError).
//
// Handle panics when tool is of another spec version than the server, when
// its types are not the ones the spec's tool table names, or when the tool
// is already registered: these are programming errors, found at start-up.
func Handle[Q, R, S, W, I any](s *Server, tool task.Tool[Q, R, S, W, I], h func(ctx context.Context, req *Q) (*task.Result[R, S, W, I], error)) {
	t := s.checkTool(tool.Name(), tool.Version(), new(Q), new(R), map[task.Status]any{
		task.Submitted: new(S), task.Working: new(W), task.InputRequired: new(I),
	})
	s.register(&entry{
		tool:   t,
		decode: decodeInto[Q],
		run: func(ctx context.Context, c *Call) *Answer {
			res, err := h(ctx, c.request.(*Q))
			if err != nil {
				return s.errorAnswer(ctx, c, err)
			}
			if res == nil {
				s.log.ErrorContext(ctx, "adcp: handler returned neither a result nor an error", "tool", c.Tool.Name)
				return ErrorAnswer(s.internalError())
			}
			return s.resultAnswer(c, res.Status, res.TaskID, res.Message, res.ContextID, res.Response, res.Submitted, res.Working, res.InputRequired)
		},
	})
}

// HandleSync serves tool with h, a handler that always answers at once:
// its response, or an error (see Handle).
func HandleSync[Q, R, S, W, I any](s *Server, tool task.Tool[Q, R, S, W, I], h func(ctx context.Context, req *Q) (*R, error)) {
	Handle(s, tool, func(ctx context.Context, req *Q) (*task.Result[R, S, W, I], error) {
		resp, err := h(ctx, req)
		if err != nil {
			return nil, err
		}
		if resp == nil {
			return nil, nil
		}
		return &task.Result[R, S, W, I]{Status: task.Completed, Response: resp}, nil
	})
}

func decodeInto[Q any](args []byte) (any, error) {
	q := new(Q)
	d, ok := any(q).(wire.Decodable)
	if !ok {
		return nil, fmt.Errorf("seller: %T cannot decode itself", q)
	}
	if err := wire.Unmarshal(args, d); err != nil {
		return nil, err
	}
	return q, nil
}

var noneType = reflect.TypeFor[*task.None]()

// checkTool returns the spec's entry for a descriptor after checking its
// version and that the Go types are the generated ones.
func (s *Server) checkTool(name, version string, req, resp any, async map[task.Status]any) registry.Tool {
	if version != s.spec.Version() {
		panic(fmt.Sprintf("seller: tool %s is of spec version %q; this server serves %q", name, version, s.spec.Version()))
	}
	t, ok := s.spec.Tool(name)
	if !ok {
		panic(fmt.Sprintf("seller: spec %s has no tool %q", s.spec.Version(), name))
	}
	same := func(what string, got any, newv func() wire.Value) {
		if newv == nil {
			panic(fmt.Sprintf("seller: tool %s: the spec has no %s type", name, what))
		}
		if want := reflect.TypeOf(newv()); reflect.TypeOf(got) != want {
			panic(fmt.Sprintf("seller: tool %s: %s type %T, the spec's is %v", name, what, got, want))
		}
	}
	same("request", req, t.NewRequest)
	same("response", resp, t.NewResponse)
	for status, v := range async {
		a, ok := t.AsyncFor(string(status))
		switch {
		case !ok && reflect.TypeOf(v) != noneType:
			panic(fmt.Sprintf("seller: tool %s: %s payload %T, the spec has none", name, status, v))
		case ok:
			same(string(status)+" payload", v, a.New)
		}
	}
	return t
}

// errorAnswer turns a handler's error into the answer the buyer gets.
func (s *Server) errorAnswer(ctx context.Context, c *Call, err error) *Answer {
	var e *adcperr.Error
	if errors.As(err, &e) && e != nil {
		return ErrorAnswer(e)
	}
	s.log.ErrorContext(ctx, "adcp: handler failed", "tool", c.Tool.Name, "err", err.Error())
	// A store that cannot be reached paces the buyer's retry with its own
	// backoff (sellerstore.OutageError's RetryAfter).
	var paced interface{ RetryAfter() time.Duration }
	if errors.As(err, &paced) && paced.RetryAfter() > 0 {
		e = s.internalError()
		e.RetryAfter = paced.RetryAfter()
		return ErrorAnswer(e)
	}
	e = upstream.Translate(err, s.cfg.Now)
	if _, ok := s.spec.Recovery(e.Code); !ok || e.Code != "RATE_LIMITED" {
		return ErrorAnswer(s.internalError())
	}
	return ErrorAnswer(e)
}

// resultAnswer encodes a handler's Result: the payload for the status,
// the protocol envelope's members filled in, the request's context echoed,
// validated when the server validates responses.
func (s *Server) resultAnswer(c *Call, status task.Status, taskID, message, contextID string, resp, submitted, working, inputRequired any) *Answer {
	if status == "" {
		status = task.Completed
	}
	var payload any
	switch status {
	case task.Completed, task.Failed, task.Canceled, task.Rejected:
		payload = resp
	case task.Submitted:
		payload = submitted
	case task.Working:
		payload = working
	case task.InputRequired:
		payload = inputRequired
	default:
		s.log.ErrorContext(c.logContext(), "adcp: handler answered a status the server cannot send", "tool", c.Tool.Name, "status", string(status))
		return ErrorAnswer(s.internalError())
	}
	if status.Interim() {
		if taskID == "" && c.started != nil {
			taskID = c.started.id
		}
		if taskID == "" {
			s.log.ErrorContext(c.logContext(), "adcp: interim answer without a task (call StartTask)", "tool", c.Tool.Name, "status", string(status))
			return ErrorAnswer(s.internalError())
		}
	}
	if contextID == "" {
		contextID = c.echoedContextID()
	}
	v := envelopeValues{status: string(status), taskID: taskID, message: message, contextID: contextID, version: c.Release}
	body, spans, bodyMessage, err := s.encodePayload(c, v, payload)
	if err != nil {
		s.log.ErrorContext(c.logContext(), "adcp: response not sent", "tool", c.Tool.Name, "status", string(status), "err", err.Error())
		return ErrorAnswer(s.internalError())
	}
	ctxObj := c.Context()
	compact := ctxObj == nil || wire.Lenient(ctxObj).CompactLen() == len(ctxObj)
	return &Answer{Status: status, TaskID: taskID, Message: message, ContextID: contextID, Body: body, Release: c.Release, echoed: c,
		filled: &filledBody{v: v, body: body, spans: spans, message: bodyMessage, compact: compact}}
}

// encodePayload encodes p (a generated value, or nil) with the protocol
// envelope's members filled from v (a handler's contradicting value is an
// *EnvelopeError) and the request's context echoed, and validates it
// against the schema for v.status. It also returns where the body's
// members lie (nil when unknown) and the message the body carries.
func (s *Server) encodePayload(c *Call, v envelopeValues, p any) (body []byte, spans []wire.Span, message string, err error) {
	status := task.Status(v.status)
	if c.bridged != nil {
		// A handler of this release answering a call of another (Bridge):
		// the payload is that release's once converted.
		rv, err := c.bridged.convert(v, p)
		if err != nil {
			return nil, nil, "", err
		}
		return c.bridged.to.encodePayload(c.bridged.call, v, rv)
	}
	// Encoded into a buffer kept for the next call, and copied once, with
	// the envelope, into the body.
	buf := encodeBufs.Get().(*[]byte)
	defer func() {
		if cap(*buf) <= maxEncodeBuf {
			encodeBufs.Put(buf)
		}
	}()
	encoded, spans, err := appendValue((*buf)[:0], p, status.Interim())
	*buf = encoded[:0]
	if err != nil {
		return nil, nil, "", err
	}
	body, spans, message, err = fillEnvelopeAt(c.Tool.Name, encoded, spans, c.Tool.EnvelopeFor(v.status), v, true, c.Context())
	if err != nil {
		return nil, nil, "", err
	}
	if sameBytes(body, encoded) { // nothing to fill: the body is still the buffer
		body = bytes.Clone(encoded)
	}
	return body, spans, message, s.checkResponse(c.Tool, status, body)
}

// encodeBufs keeps encoding buffers of up to maxEncodeBuf bytes.
var encodeBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxEncodeBuf = 1 << 20

// encodeValue encodes a generated value strictly. A nil interim payload, or
// a task.None, is the empty object.
func encodeValue(p any, emptyOK bool) ([]byte, error) {
	out, _, err := appendValue(nil, p, emptyOK)
	return out, err
}

// appendValue appends a generated value encoded strictly (encodeValue),
// and where its members lie when it is an object (nil otherwise).
func appendValue(dst []byte, p any, emptyOK bool) ([]byte, []wire.Span, error) {
	if p == nil || reflect.ValueOf(p).IsNil() || reflect.TypeOf(p) == noneType {
		if emptyOK {
			return append(dst, "{}"...), nil, nil
		}
		return dst, nil, errors.New("no response value")
	}
	enc, ok := p.(wire.Encodable)
	if !ok {
		return dst, nil, fmt.Errorf("%T cannot encode itself", p)
	}
	out, spans, err := wire.AppendSpans(dst, enc, nil)
	if err == nil && (len(spans) == 0 || !wire.Lenient(out[len(dst):]).IsObject()) {
		spans = nil // no object, or an empty one: nothing to save
	}
	return out, spans, err
}

// ResponseError is a payload that failed its schema; it is never sent.
type ResponseError struct {
	Tool   string
	Schema string
	Issues []validate.Issue
}

func (e *ResponseError) Error() string {
	msg := fmt.Sprintf("%s: payload fails %s", e.Tool, e.Schema)
	for i, is := range e.Issues {
		if i == 5 {
			msg += fmt.Sprintf("; and %d more", len(e.Issues)-i)
			break
		}
		msg += "; " + is.String()
	}
	return msg
}

// checkResponse validates body against the schema for status when the
// server validates responses, then refuses a top-level identifier sent
// empty ("task_id":"", "media_buy_id":""), which AdCP's schemas mostly let
// through.
func (s *Server) checkResponse(t registry.Tool, status task.Status, body []byte) error {
	if !s.cfg.ValidateResponses || s.validator == nil {
		return nil
	}
	schema := t.ResponseSchema
	if status.Interim() {
		if a, ok := t.AsyncFor(string(status)); ok {
			schema = a.Schema
		} else {
			schema = "" // the spec gives this status no payload schema
		}
	}
	if schema != "" {
		issues, err := s.validator.Validate(schema, body)
		if err != nil {
			return fmt.Errorf("validating against %s: %w", schema, err)
		}
		if len(issues) > 0 {
			return &ResponseError{Tool: t.Name, Schema: schema, Issues: issues}
		}
	}
	if ptrs := emptyIDs(body); len(ptrs) > 0 {
		issues := make([]validate.Issue, len(ptrs))
		for i, p := range ptrs {
			issues[i] = validate.Issue{Pointer: p, Keyword: "minLength", Message: "an identifier sent empty"}
		}
		return &ResponseError{Tool: t.Name, Schema: "(no empty identifiers)", Issues: issues}
	}
	return nil
}
