package seller

import (
	"errors"
)

// ErrorObject is the JSON object that carries an error answer on the wire:
// {"adcp_error": <the error>} and, when the request had one, its context
// beside it ("context": {...}), as every AdCP response echoes it. It is
// MCP's structuredContent and an A2A failed task's DataPart.
func ErrorObject(a *Answer) ([]byte, error) {
	if a.Error == nil {
		return nil, errors.New("seller: not an error answer")
	}
	w, err := a.Error.WireJSON()
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(w)+len(a.Context)+32)
	out = append(out, `{"adcp_error":`...)
	out = append(out, w...)
	if len(a.Context) > 0 {
		out = append(out, `,"context":`...)
		out = append(out, a.Context...)
	}
	return append(out, '}'), nil
}
