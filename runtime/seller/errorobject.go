package seller

import (
	"errors"

	"github.com/adcpgen/adcpgen/runtime/release"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// ErrorObject is the JSON object that carries an error answer on the wire:
// {"adcp_error": <the error>} and, when the request had one, its context
// beside it ("context": {...}), as every AdCP response echoes it, and the
// release the call was served in ("adcp_version": "3.1", Answer.Release).
// From AdCP 3.1 it is the failed task's payload too (the two-layer model
// of error-handling.mdx: a fatal failure populates both the envelope's
// adcp_error and the payload's errors[], and every response carries its
// status): "status": "failed" and "errors": [<the error>] beside it.
// It is MCP's structuredContent and an A2A failed task's DataPart.
func ErrorObject(a *Answer) ([]byte, error) {
	if a.Error == nil {
		return nil, errors.New("seller: not an error answer")
	}
	w, err := a.Error.WireJSON()
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(w)+len(a.Context)+64)
	out = append(out, `{"adcp_error":`...)
	out = append(out, w...)
	if failedPayload(a.Release) {
		out = append(out, `,"status":"failed","errors":[`...)
		out = append(out, w...)
		out = append(out, ']')
	}
	if len(a.Context) > 0 {
		out = append(out, `,"context":`...)
		out = append(out, a.Context...)
	}
	if a.Release != "" {
		out = append(out, `,"adcp_version":`...)
		out = wire.AppendQuoted(out, a.Release)
	}
	return append(out, '}'), nil
}

// failedPayload reports a release whose error answers carry the failed
// payload (3.1 and later); "" and 3.0 do not.
func failedPayload(wireRelease string) bool {
	r, err := release.FromWire(wireRelease)
	return err == nil && r.Compare(release.Release{Major: 3, Minor: 1}) >= 0
}
