package rawrpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Response is one JSON-RPC 2.0 response. ID, Result and Error are sub-slices
// of Message.
type Response struct {
	// Message is the whole response object. When Exact is true these are
	// the bytes the peer sent, byte for byte.
	Message []byte
	// ID is the id member as sent.
	ID json.RawMessage
	// Result is the result member as sent; nil when absent.
	Result json.RawMessage
	// Error is the error object as sent (code, message, data); nil when
	// absent.
	Error json.RawMessage
	// Exact reports whether Message is the peer's bytes. It is false only
	// when a transport gives no access to the stream (an arbitrary MCP
	// transport): Message is then rebuilt around the SDK's undecoded result
	// or error bytes, which are still the peer's.
	Exact bool
}

// ErrMalformed is wrapped by every error Parse returns.
var ErrMalformed = errors.New("malformed JSON-RPC response")

// ErrNoResponse is wrapped by the transports when a call returned without
// a JSON-RPC response having been recorded for it (the request was never
// sent, or what came back was not a response).
var ErrNoResponse = errors.New("no JSON-RPC response recorded for the call")

// Parse reads one JSON-RPC response object with wire's reader (the one
// JSON reader of the runtime, with its depth limit). It rejects a member
// that appears twice (names compared after unescaping, so "\u0072esult"
// repeats "result"), a response with both result and error, one with
// neither, and anything after the object. The error names the JSON pointer
// of the offending member. The members' values are not decoded (a
// response's result can be large): ID, Result and Error are cut out of msg.
func Parse(msg []byte) (*Response, error) {
	v, err := wire.ParseLenient(msg)
	if err != nil {
		var de *wire.DecodeError
		if errors.As(err, &de) {
			ptr := de.Pointer
			if ptr == "" {
				ptr = "/"
			}
			return nil, fmt.Errorf("%w at %s: %s", ErrMalformed, ptr, de.Message)
		}
		return nil, fmt.Errorf("%w at /: %w", ErrMalformed, err)
	}
	if !v.IsObject() {
		return nil, fmt.Errorf("%w at /: not an object", ErrMalformed)
	}
	r := &Response{Message: msg, Exact: true}
	var seen [8]string
	names, dup := seen[:0], ""
	v.Members(func(key, val wire.Lenient) bool {
		name, _ := key.AsString()
		if slices.Contains(names, name) {
			dup = name
			return false
		}
		names = append(names, name)
		switch name {
		case "id":
			r.ID = json.RawMessage(val)
		case "result":
			r.Result = json.RawMessage(val)
		case "error":
			r.Error = json.RawMessage(val)
		}
		return true
	})
	if dup != "" {
		return nil, fmt.Errorf("%w at %s: duplicate member %q", ErrMalformed, wire.PointerToken(dup), dup)
	}
	return r.check()
}

// check applies the rules about which members a response has.
func (r *Response) check() (*Response, error) {
	switch {
	case r.Result != nil && r.Error != nil:
		return nil, fmt.Errorf("%w at /error: both result and error", ErrMalformed)
	case r.Result == nil && r.Error == nil:
		return nil, fmt.Errorf("%w at /: neither result nor error", ErrMalformed)
	}
	return r, nil
}

// IDKey is a comparable form of a JSON-RPC id: "s:" and the unescaped
// string, or "n:" and the integer. Ids of other kinds are an error; so are
// fractional numbers, which no client here sends.
func IDKey(id json.RawMessage) (string, error) {
	v, err := wire.ParseLenient(id)
	if err != nil {
		return "", fmt.Errorf("%w at /id: %w", ErrMalformed, err)
	}
	if s, ok := v.AsString(); ok {
		return "s:" + s, nil
	}
	if !v.IsNumber() {
		return "", fmt.Errorf("%w at /id: want a string or an integer, got %s", ErrMalformed, id)
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(string(v), 64)
		if ferr != nil || f != float64(int64(f)) {
			return "", fmt.Errorf("%w at /id: %s is not an integer", ErrMalformed, v)
		}
		n = int64(f)
	}
	return "n:" + strconv.FormatInt(n, 10), nil
}
