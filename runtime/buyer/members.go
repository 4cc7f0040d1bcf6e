package buyer

import (
	"bytes"
	"encoding/json"
	"errors"
)

// The request bytes the client sends are the strict encoder's output (or a
// caller's JSON object checked with wire.Valid). The client adds the
// members AdCP asks of it (idempotency_key, context_id) into those bytes
// instead of re-encoding, so what the caller's value encoded to is sent
// unchanged around them.

// member finds the top-level member name of the JSON object obj (names
// compared after unescaping) and returns its value's span. obj must be
// valid JSON.
func member(obj []byte, name string) (start, end int, found bool, err error) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return 0, 0, false, errors.New("the request is not a JSON object")
	}
	i = skipWS(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return 0, 0, false, nil
	}
	for i < len(obj) {
		ks := i
		i = skipString(obj, i)
		key := obj[ks:i]
		i = skipWS(obj, i)
		i = skipWS(obj, i+1) // ':'
		vs := i
		i = skipValue(obj, i)
		if keyIs(key, name) {
			return vs, i, true, nil
		}
		i = skipWS(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			break
		}
		i = skipWS(obj, i+1) // ','
	}
	return 0, 0, false, nil
}

// keyIs compares a quoted key with name after unescaping.
func keyIs(quoted []byte, name string) bool {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return len(quoted) == len(name)+2 && string(quoted[1:len(quoted)-1]) == name
	}
	var s string
	return json.Unmarshal(quoted, &s) == nil && s == name
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] ('"').
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

// skipValue returns the index after the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
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
				depth--
				if depth == 0 {
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

// setMember returns obj with the top-level member name set to value (JSON),
// replacing its value when present, else added first.
func setMember(obj []byte, name string, value []byte) ([]byte, error) {
	start, end, found, err := member(obj, name)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(obj)+len(name)+len(value)+4)
	if found {
		out = append(out, obj[:start]...)
		out = append(out, value...)
		return append(out, obj[end:]...), nil
	}
	open := skipWS(obj, 0)
	out = append(out, obj[:open+1]...)
	out = append(out, '"')
	out = append(out, name...)
	out = append(out, '"', ':')
	out = append(out, value...)
	rest := obj[open+1:]
	if r := skipWS(rest, 0); r < len(rest) && rest[r] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...), nil
}
