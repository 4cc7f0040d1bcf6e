package seller

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller/rpcerr"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// rpcEnvelopeSlack is what a JSON-RPC request may add to a call's
// arguments (method, id, params and the transport's own members).
const rpcEnvelopeSlack = 64 << 10

// JSON-RPC 2.0's own codes for a request refused before any method runs.
const (
	rpcParseError     int64 = -32700
	rpcInvalidRequest int64 = -32600
	rpcInvalidParams  int64 = -32602
)

// ReadRPCBody reads the body of a POST for a transport's gate, which must
// see the exact bytes before an SDK decodes them, capped at
// MaxRequestBytes plus the JSON-RPC envelope; it puts the bytes back in
// r.Body for the SDK behind the gate. Other methods read nothing: nil,
// true.
//
// A refused body is answered in the protocol, so a buyer's extractor reads
// the refusal as any AdCP error: a JSON-RPC error response (to the
// request's id when the bytes read name one, else null, as JSON-RPC 2.0
// says) whose data.adcp_error is a correctable INVALID_REQUEST saying what
// to change. A body over the cap gets HTTP 413 (JSON-RPC -32600, the sizes
// in the message), one that cannot be read 400 (-32600), one that did not
// arrive before the connection's read deadline 408 (-32600); ok is false. The
// gate then authenticates, and refuses what is not JSON with CheckRPCBody.
func (s *Server) ReadRPCBody(w http.ResponseWriter, r *http.Request) (body []byte, ok bool) {
	if r.Method != http.MethodPost || r.Body == nil {
		return nil, true
	}
	limit := int64(s.maxBytes) + rpcEnvelopeSlack
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			size := "more than " + strconv.FormatInt(limit, 10) + " bytes"
			if r.ContentLength > limit {
				size = strconv.FormatInt(r.ContentLength, 10) + " bytes"
			}
			e := s.newError(s.pickCode("INVALID_REQUEST"), fmt.Sprintf(
				"The request is %s, over the %d this agent accepts (%d of arguments and the JSON-RPC envelope): send less per call",
				size, limit, s.maxBytes))
			s.writeRPCError(w, http.StatusRequestEntityTooLarge, leadingID(body), rpcInvalidRequest, "Request too large", e)
			return nil, false
		}
		if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
			// The read deadline a server sets against clients that drip
			// their body (runtime/sellerhttp's BodyTimeout).
			e := s.newError(s.pickCode("INVALID_REQUEST"), "The request body did not arrive in time: send it at once")
			s.writeRPCError(w, http.StatusRequestTimeout, leadingID(body), rpcInvalidRequest, "Request timeout", e)
			return nil, false
		}
		e := s.newError(s.pickCode("INVALID_REQUEST"), "The request body could not be read")
		s.writeRPCError(w, http.StatusBadRequest, nil, rpcInvalidRequest, "Invalid request", e)
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, true
}

// CheckRPCBody refuses, as ReadRPCBody does, what the SDK behind the gate
// would refuse without an AdCP error, or must not see: HTTP 400 and a
// JSON-RPC error carrying a correctable INVALID_REQUEST, -32700 for a body
// that is not JSON, -32600 for JSON that is no request object, -32602 for
// params that are not structured (JSON-RPC 2.0 section 4.2: an object or
// an array), -32600 for a request object or params naming a member twice
// (ignoring case, see repeatedMember; a repeated key inside a call's
// arguments is the strict decoder's to name, in the call's answer). A
// JSON-RPC batch (an array) is refused with -32600 too: MCP's
// transport has had none since 2025-06-18, a2a-go reads none, and a batch
// must never be a way around what its calls would meet alone (Admit judges
// it by its strictest call, and the gate ends it here). Gates call it once
// the request is authenticated, so a caller without credentials learns
// nothing but that it needs some. ok is false when it answered.
func (s *Server) CheckRPCBody(w http.ResponseWriter, body []byte) (ok bool) {
	if body == nil {
		return true
	}
	v, err := wire.ParseLenient(body)
	if err != nil {
		e := s.newError(s.pickCode("INVALID_REQUEST"), fmt.Sprintf(
			"The request is not JSON (at %s): send one JSON-RPC 2.0 request object", untrusted.Sanitize(err.Error())))
		s.writeRPCError(w, http.StatusBadRequest, leadingID(body), rpcParseError, "Parse error", e)
		return false
	}
	var (
		code  int64
		msg   string
		field string
	)
	switch params := v.Get("params"); {
	case v.IsArray():
		code, msg = rpcInvalidRequest, "JSON-RPC batches are not accepted (MCP's transport has none since 2025-06-18): send each request in a POST of its own"
	case !v.IsObject():
		code, msg = rpcInvalidRequest, "The request is not a JSON-RPC 2.0 request object: send one"
	case params.Present() && !params.IsObject() && !params.IsArray():
		code, msg = rpcInvalidParams, "The request's params are not an object: send the method's parameters as a JSON object"
	default:
		if field = repeatedMember(v, ""); field == "" {
			field = repeatedMember(params, "/params")
		}
		if field == "" {
			return true
		}
		code, msg = rpcInvalidRequest, "The request has a duplicate member at "+field+" (names compared ignoring case), which servers read differently: send each member once"
	}
	var id json.RawMessage
	if raw := v.Get("id"); v.IsObject() && (raw.IsString() || raw.IsNumber()) {
		id = raw.Raw()
	}
	message := "Invalid Request"
	if code == rpcInvalidParams {
		message = "Invalid params"
	}
	e := s.newError(s.pickCode("INVALID_REQUEST"), msg)
	e.Field = field
	s.writeRPCError(w, http.StatusBadRequest, id, code, message, e)
	return false
}

// repeatedMember is the JSON pointer (under at) of a member of obj whose
// name an earlier member repeats, compared ignoring case, or "". The
// request object and its params are what servers dispatch on, and they do
// not read a repeated name alike: the gate and go-sdk take the last
// "method", a2a-go (encoding/json) also takes "Method" for it, so a body
// naming two could be authenticated as one call and run as another.
func repeatedMember(obj wire.Lenient, at string) string {
	if !obj.IsObject() {
		return ""
	}
	var seen []string
	found := ""
	obj.Members(func(k, _ wire.Lenient) bool {
		name, _ := k.AsString()
		for _, prev := range seen {
			if strings.EqualFold(prev, name) {
				found = at + "/" + pointerEscaper.Replace(untrusted.Sanitize(name))
				return false
			}
		}
		seen = append(seen, name)
		return true
	})
	return found
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// writeRPCError answers a request the gate refuses with a JSON-RPC error
// response whose data is {"adcp_error": e}.
func (s *Server) writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int64, message string, e *adcperr.Error) {
	data, err := adcpErrorJSON(e)
	if err != nil { // unreachable: newError makes a sendable error
		data = nil
	}
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	out, _ := json.Marshal(rpcerr.ErrorResponse{JSONRPC: "2.0", ID: id, Error: &rpcerr.Object{Code: code, Message: message, Data: data}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// leadingID is the id of a JSON-RPC request whose bytes may be cut short
// (a body read up to a cap) or broken further on: the top-level "id"
// member, when it comes before the bytes end or break, as SDKs write it
// (before params). nil when there is none to be read.
func leadingID(prefix []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key != "id" {
			if skipValue(dec) != nil {
				return nil
			}
			continue
		}
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		switch v := tok.(type) {
		case json.Number:
			return json.RawMessage(v)
		case string:
			out, _ := json.Marshal(v)
			return out
		}
		return nil // null, or not an id
	}
	return nil
}

// skipValue reads one value's tokens.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
