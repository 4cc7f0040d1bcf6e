package rawrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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

// Parse reads one JSON-RPC response object. It rejects a member that
// appears twice (names compared after unescaping, so "\u0072esult" repeats
// "result"), a response with both result and error, one with neither, and
// anything after the object. The error names the JSON pointer of the
// offending member.
func Parse(msg []byte) (*Response, error) {
	if json.Valid(msg) {
		if r, ok := parseValid(msg); ok {
			return r.check()
		}
	}
	return parseSlow(msg)
}

// parseValid cuts a message json.Valid accepted into its top-level members
// in one pass, without decoding them (a response's result can be large).
// ok is false for anything but an object with unique member names; the
// slow path then says what is wrong.
func parseValid(msg []byte) (r *Response, ok bool) {
	i := skipSpace(msg, 0)
	if i >= len(msg) || msg[i] != '{' {
		return nil, false
	}
	r = &Response{Message: msg, Exact: true}
	var seen [8]string
	names := seen[:0]
	i = skipSpace(msg, i+1)
	for i < len(msg) && msg[i] == '"' {
		kend := skipString(msg, i)
		name, ok := memberName(msg[i:kend])
		if !ok {
			return nil, false
		}
		for _, n := range names {
			if n == name {
				return nil, false
			}
		}
		names = append(names, name)
		v := skipSpace(msg, skipSpace(msg, kend)+1) // past ':'
		vend := skipValue(msg, v)
		value := json.RawMessage(msg[v:vend:vend])
		switch name {
		case "id":
			r.ID = value
		case "result":
			r.Result = value
		case "error":
			r.Error = value
		}
		i = skipSpace(msg, vend)
		if i < len(msg) && msg[i] == ',' {
			i = skipSpace(msg, i+1)
		}
	}
	return r, true
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

// memberName unescapes a quoted member name.
func memberName(quoted []byte) (string, bool) {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return string(quoted[1 : len(quoted)-1]), true
	}
	var s string
	return s, json.Unmarshal(quoted, &s) == nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the index after the valid JSON value at b[i].
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// parseSlow reads a response token by token, for the exact error.
func parseSlow(msg []byte) (*Response, error) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%w at /: %w", ErrMalformed, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%w at /: not an object", ErrMalformed)
	}
	r := &Response{Message: msg, Exact: true}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%w at /: %w", ErrMalformed, err)
		}
		name := tok.(string) // object keys are always strings
		ptr := pointer(name)
		if seen[name] {
			return nil, fmt.Errorf("%w at %s: duplicate member %q", ErrMalformed, ptr, name)
		}
		seen[name] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%w at %s: %w", ErrMalformed, ptr, err)
		}
		end := int(dec.InputOffset())
		value := json.RawMessage(msg[end-len(raw) : end : end])
		switch name {
		case "id":
			r.ID = value
		case "result":
			r.Result = value
		case "error":
			r.Error = value
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%w at /: %w", ErrMalformed, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w at /: data after the response object", ErrMalformed)
	}
	return r.check()
}

// IDKey is a comparable form of a JSON-RPC id: "s:" and the unescaped
// string, or "n:" and the integer. Ids of other kinds are an error; so are
// fractional numbers, which no client here sends.
func IDKey(id json.RawMessage) (string, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(id))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("%w at /id: %w", ErrMalformed, err)
	}
	switch v := v.(type) {
	case string:
		return "s:" + v, nil
	case json.Number:
		n, err := strconv.ParseInt(v.String(), 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(v.String(), 64)
			if ferr != nil || f != float64(int64(f)) {
				return "", fmt.Errorf("%w at /id: %s is not an integer", ErrMalformed, v)
			}
			n = int64(f)
		}
		return "n:" + strconv.FormatInt(n, 10), nil
	}
	return "", fmt.Errorf("%w at /id: want a string or an integer, got %s", ErrMalformed, id)
}

// pointer is the JSON pointer of a top-level member.
func pointer(name string) string {
	return "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
}
