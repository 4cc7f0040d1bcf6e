package runtime

import "strconv"

// DetectError applies the client detection order of the transport-error
// specification to an envelope of any transport, looking for adcp_error in:
//  1. structuredContent.adcp_error, when isError is truthy (MCP tool error);
//  2. artifacts[*].parts[*].data.adcp_error (A2A task, after unwrapping one
//     stream envelope);
//  3. status.message.parts[*].data.adcp_error (A2A status message);
//  4. error.data.adcp_error (JSON-RPC transport error);
//  5. content[*].text parsed as JSON, when isError is truthy (MCP text
//     fallback).
//
// The first candidate found decides; when it fails validation (an object
// whose code is a string of 1-64 characters, at most 4096 bytes of compact
// JSON) there is no structured error. The Result carries Error and Action:
// the error's action, or generic_error when none was found. It never
// extracts success data; use the per-transport methods for that.
func (x Extractor) DetectError(envelope []byte) *Result {
	r := &Result{}
	v, ok := parse(envelope, r)
	if !ok {
		return r
	}
	var f found
	x.detect(v, r, &f)
	r.finish(&f, true)
	return r
}

func (x Extractor) detect(v jval, r *Result, f *found) {
	m := readMCP(v)
	if m.isError {
		if sc := m.structuredContent; sc.isObject() {
			if overCap(sc, x.maxPayload()) {
				f.tooLarge = true
			} else if ae := sc.get("adcp_error"); ae.truthy() {
				x.setError(r, f, ae, "structuredContent.adcp_error")
				return
			}
		}
	}
	task, key, nested := unwrapStream(v)
	if !nested {
		prefix := ""
		if key != "" {
			prefix = key + "."
		}
		if x.a2aError(task, r, f, prefix) {
			return
		}
	}
	if ae := v.get("error").get("data").get("adcp_error"); ae.truthy() {
		x.setError(r, f, ae, "error.data.adcp_error")
		return
	}
	if m.isError {
		x.textItems(m.content, f, func(i int, obj jval) bool {
			ae := obj.get("adcp_error")
			if !ae.truthy() {
				return true
			}
			x.setError(r, f, ae, "content["+strconv.Itoa(i)+"].text.adcp_error")
			return false
		})
	}
}
