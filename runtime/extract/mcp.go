package extract

import (
	"encoding/json"
	"strconv"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// MCP extracts from what an MCP client holds: a CallToolResult
// ({"content": [...], "structuredContent": {...}, "isError": true}) or the
// whole JSON-RPC response to tools/call. MCP success extraction and the
// MCP binding of AdCP's transport error mapping apply:
//   - Data, when isError is falsy: structuredContent when it is a non-array
//     object within the size cap (an adcp_error-only object means none),
//     else the first content[] text item that parses to a non-array object
//     that is not adcp_error-only (items over the cap are skipped unparsed);
//   - Error, only when isError is truthy: structuredContent.adcp_error, else
//     the first text item's adcp_error; the first one found decides, even
//     when it fails validation.
//   - Action: with isError, the error's action or generic_error; without
//     it, generic_error when no data was found but an adcp_error-only
//     object was (an error response missing its flag).
//
// A JSON-RPC response is one with a "jsonrpc" member, or with "result" or
// "error" and none of the CallToolResult members. A truthy "error" gives
// no data and the error from error.data.adcp_error (its action, or
// generic_error); the JSON-RPC code (-32029, -32028, -32027) never
// classifies. Otherwise "result" is read as a CallToolResult.
func (x *Extractor) MCP(envelope []byte) *Result {
	r := &Result{}
	v, ok := parse(envelope, r)
	if !ok {
		return r
	}
	m := readMCP(v)
	switch {
	case m.isJSONRPC():
		r.Form = FormJSONRPC
		if e := m.rpcError; e.Truthy() {
			x.jsonrpcError(e, r)
			return r
		}
		res := m.rpcResult
		if res.Present() && !res.IsObject() {
			r.shape = "JSON-RPC result: " + describe(res, "an MCP CallToolResult")
		}
		x.mcpResult(readMCP(res), r, "result.")
	case v.IsObject():
		r.Form = FormToolResult
		x.mcpResult(m, r, "")
	default:
		r.shape = describe(v, "an MCP CallToolResult or a JSON-RPC response holding one")
	}
	return r
}

// jsonrpcError reads a truthy JSON-RPC error member: error.data.adcp_error
// when present, and always a failure.
func (x *Extractor) jsonrpcError(e wire.Lenient, r *Result) {
	var f found
	if ae := e.Get("data").Get("adcp_error"); ae.Present() {
		x.setError(r, &f, ae, "error.data.adcp_error")
	}
	r.finish(&f, true)
}

// mcpView is the part of a CallToolResult (or of a JSON-RPC response)
// extraction reads, looked up in one pass.
type mcpView struct {
	isError           bool
	structuredContent wire.Lenient
	content           wire.Lenient
	// Members of a JSON-RPC response.
	jsonrpc, rpcResult, rpcError wire.Lenient
	// toolMembers: some CallToolResult member is present.
	toolMembers bool
}

var mcpKeys = []string{"isError", "structuredContent", "content", "jsonrpc", "result", "error"}

func readMCP(v wire.Lenient) mcpView {
	var f [6]wire.Lenient
	v.Fields(mcpKeys, f[:])
	return mcpView{isError: f[0].Truthy(), structuredContent: f[1], content: f[2],
		jsonrpc: f[3], rpcResult: f[4], rpcError: f[5],
		toolMembers: f[0].Present() || f[1].Present() || f[2].Present()}
}

func (m mcpView) isJSONRPC() bool {
	return m.jsonrpc.Present() || ((m.rpcResult.Present() || m.rpcError.Present()) && !m.toolMembers)
}

func (x *Extractor) mcpResult(m mcpView, r *Result, prefix string) {
	var f found
	if m.isError {
		x.mcpError(m, r, &f, prefix)
	} else {
		r.Data, r.DataPath = x.mcpData(m, &f, prefix)
	}
	r.finish(&f, m.isError || (r.Data == nil && f.errorOnly))
}

func (x *Extractor) mcpData(m mcpView, f *found, prefix string) (json.RawMessage, string) {
	if sc := m.structuredContent; sc.IsObject() {
		switch {
		case overCap(sc, x.payloadCap):
			f.skipped("structuredContent", sc.CompactLen(), x.payloadCap) // fall through to the text items
		case sc.OnlyKey("adcp_error"):
			f.errorOnly = true
			return nil, ""
		default:
			return sc.Raw(), prefix + "structuredContent"
		}
	}
	var data json.RawMessage
	var path string
	x.textItems(m.content, f, func(i int, obj wire.Lenient) bool {
		if obj.OnlyKey("adcp_error") {
			f.errorOnly = true
			return true
		}
		data, path = obj.Raw(), prefix+"content["+strconv.Itoa(i)+"].text"
		return false
	})
	return data, path
}

// overCap reports whether v's compact JSON text exceeds max bytes; the raw
// length bounds it, so most values are never measured.
func overCap(v wire.Lenient, max int) bool { return len(v) > max && v.CompactLen() > max }

// textItems parses each content[] item of type "text" with a truthy string
// text, in order, and calls fn with those that are non-array objects until
// fn returns false. Texts over the size cap are skipped before parsing.
func (x *Extractor) textItems(content wire.Lenient, f *found, fn func(i int, obj wire.Lenient) bool) {
	i := -1
	content.Elems(func(item wire.Lenient) bool {
		i++
		if !item.Get("type").StringIs("text") {
			return true
		}
		text := item.Get("text")
		if !text.IsString() || !text.Truthy() {
			return true
		}
		if n := text.TextLen(); n > x.payloadCap {
			f.skipped("content["+strconv.Itoa(i)+"].text", n, x.payloadCap)
			return true
		}
		doc, err := wire.ParseLenient(text.Text(nil))
		if err != nil || !doc.IsObject() {
			return true
		}
		return fn(i, doc)
	})
}

// mcpError finds the adcp_error of an isError CallToolResult.
func (x *Extractor) mcpError(m mcpView, r *Result, f *found, prefix string) {
	if sc := m.structuredContent; sc.IsObject() {
		if overCap(sc, x.payloadCap) {
			f.skipped("structuredContent", sc.CompactLen(), x.payloadCap)
		} else if ae := sc.Get("adcp_error"); ae.Truthy() {
			x.setError(r, f, ae, prefix+"structuredContent.adcp_error")
			return
		}
	}
	x.textItems(m.content, f, func(i int, obj wire.Lenient) bool {
		ae := obj.Get("adcp_error")
		if !ae.Truthy() {
			return true
		}
		x.setError(r, f, ae, prefix+"content["+strconv.Itoa(i)+"].text.adcp_error")
		return false
	})
}
