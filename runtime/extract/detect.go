package extract

import (
	"strconv"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// DetectError applies the error detection order of AdCP's transport error
// mapping to an envelope of any transport, looking for adcp_error in:
//  1. structuredContent.adcp_error, when isError is truthy (MCP tool error);
//  2. artifacts[*].parts[*].data.adcp_error (A2A task, after unwrapping one
//     stream envelope);
//  3. status.message.parts[*].data.adcp_error (A2A status message);
//  4. error.data.adcp_error (JSON-RPC transport error);
//  5. content[*].text parsed as JSON, when isError is truthy (MCP text
//     fallback);
//
// and then, for a JSON-RPC response, in its result in the same order. The
// first candidate found decides; when it fails validation there is no
// structured error. Action is the error's, or generic_error when none was
// found. It neither extracts success data nor sets Form: use MCP, A2A or
// Webhook for that.
func (x *Extractor) DetectError(envelope []byte) *Result {
	r := &Result{}
	v, ok := parse(envelope, r)
	if !ok {
		return r
	}
	var f found
	if !x.detect(v, r, &f, "") {
		if res := v.Get("result"); res.IsObject() {
			x.detect(res, r, &f, "result.")
		}
	}
	r.finish(&f, true)
	return r
}

// detect reports whether it met a candidate (valid or not).
func (x *Extractor) detect(v wire.Lenient, r *Result, f *found, prefix string) bool {
	m := readMCP(v)
	if m.isError {
		if sc := m.structuredContent; sc.IsObject() {
			if overCap(sc, x.payloadCap) {
				f.skipped("structuredContent", sc.CompactLen(), x.payloadCap)
			} else if ae := sc.Get("adcp_error"); ae.Truthy() {
				x.setError(r, f, ae, prefix+"structuredContent.adcp_error")
				return true
			}
		}
	}
	task, key, nested := unwrapStream(v)
	if !nested {
		p := prefix
		if key != "" {
			p += key + "."
		}
		if x.a2aError(task, r, f, p) {
			return true
		}
	}
	if ae := m.rpcError.Get("data").Get("adcp_error"); ae.Truthy() {
		x.setError(r, f, ae, prefix+"error.data.adcp_error")
		return true
	}
	done := false
	if m.isError {
		x.textItems(m.content, f, func(i int, obj wire.Lenient) bool {
			ae := obj.Get("adcp_error")
			if !ae.Truthy() {
				return true
			}
			x.setError(r, f, ae, prefix+"content["+strconv.Itoa(i)+"].text.adcp_error")
			done = true
			return false
		})
	}
	return done
}
