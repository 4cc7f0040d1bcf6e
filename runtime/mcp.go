package runtime

import (
	"encoding/json"
	"strconv"
)

// MCP success and error extraction (seeds 000 and 001), over an MCP
// CallToolResult: {"content": [...], "structuredContent": {...},
// "isError": true}.

// MCP extracts from a CallToolResult:
//   - Data, when isError is falsy: structuredContent when it is a non-array
//     object within the size cap (an adcp_error-only object means none),
//     else the first content[] text item that parses to a non-array object
//     that is not adcp_error-only (items over the cap are skipped unparsed);
//   - Error, only when isError is truthy: structuredContent.adcp_error, else
//     the first text item's adcp_error; the first one found decides, even
//     when it fails validation.
//
// Action: with isError, the error's action or generic_error; without it,
// generic_error when no data was found but an adcp_error-only object was
// (an error response missing its flag).
func (x Extractor) MCP(envelope []byte) *Result {
	r := &Result{}
	v, ok := parse(envelope, r)
	if !ok {
		return r
	}
	x.mcpResult(v, r, "")
	return r
}

// mcpView is the part of a CallToolResult extraction reads, looked up in
// one pass.
type mcpView struct {
	isError           bool
	structuredContent jval
	content           jval
}

var mcpKeys = []string{"isError", "structuredContent", "content"}

func readMCP(v jval) mcpView {
	var f [3]jval
	v.fields(mcpKeys, f[:])
	return mcpView{isError: f[0].truthy(), structuredContent: f[1], content: f[2]}
}

func (x Extractor) mcpResult(v jval, r *Result, prefix string) {
	var f found
	m := readMCP(v)
	if m.isError {
		x.mcpError(m, r, &f, prefix)
	} else {
		r.Data, r.DataPath = x.mcpData(m, &f, prefix)
	}
	r.finish(&f, m.isError || (r.Data == nil && f.errorOnly))
}

// overCap reports whether v's compact JSON text exceeds max bytes; the raw
// length bounds it, so most values are never measured.
func overCap(v jval, max int) bool { return len(v) > max && compactLen(v) > max }

// MCPData is seed 000's extractAdcpResponseFromMCP: the success data of a
// CallToolResult, or nil. It returns an error only for invalid JSON.
func MCPData(envelope []byte) (json.RawMessage, error) {
	r := &Result{}
	v, ok := parse(envelope, r)
	if !ok {
		return nil, r.Err
	}
	m := readMCP(v)
	if m.isError {
		return nil, nil
	}
	var f found
	data, _ := Extractor{}.mcpData(m, &f, "")
	return data, nil
}

func (x Extractor) mcpData(m mcpView, f *found, prefix string) (json.RawMessage, string) {
	if sc := m.structuredContent; sc.isObject() {
		switch {
		case overCap(sc, x.maxPayload()):
			f.tooLarge = true // skipped: fall through to the text items
		case sc.onlyKey("adcp_error"):
			f.errorOnly = true
			return nil, ""
		default:
			return sc.raw(), prefix + "structuredContent"
		}
	}
	var data json.RawMessage
	var path string
	x.textItems(m.content, f, func(i int, obj jval) bool {
		if obj.onlyKey("adcp_error") {
			f.errorOnly = true
			return true
		}
		data, path = obj.raw(), prefix+"content["+strconv.Itoa(i)+"].text"
		return false
	})
	return data, path
}

// textItems parses each content[] item of type "text" with a truthy string
// text, in order, and calls fn with those that are non-array objects until
// fn returns false. Texts over the size cap are skipped before parsing.
func (x Extractor) textItems(content jval, f *found, fn func(i int, obj jval) bool) {
	i := -1
	content.elems(func(item jval) bool {
		i++
		if !item.get("type").strIs("text") {
			return true
		}
		text := item.get("text")
		if !text.isString() || !text.truthy() {
			return true
		}
		if decodedLen(text) > x.maxPayload() {
			f.tooLarge = true
			return true
		}
		doc, err := parseDocument(decodeString(nil, text))
		if err != nil || !doc.isObject() {
			return true
		}
		return fn(i, doc)
	})
}

// mcpError finds the adcp_error of an isError CallToolResult.
func (x Extractor) mcpError(m mcpView, r *Result, f *found, prefix string) {
	if sc := m.structuredContent; sc.isObject() {
		if overCap(sc, x.maxPayload()) {
			f.tooLarge = true
		} else if ae := sc.get("adcp_error"); ae.truthy() {
			x.setError(r, f, ae, prefix+"structuredContent.adcp_error")
			return
		}
	}
	x.textItems(m.content, f, func(i int, obj jval) bool {
		ae := obj.get("adcp_error")
		if !ae.truthy() {
			return true
		}
		x.setError(r, f, ae, prefix+"content["+strconv.Itoa(i)+"].text.adcp_error")
		return false
	})
}

// JSONRPC extracts from a JSON-RPC response: a truthy `error` gives no data
// and the error from error.data.adcp_error (its action, or generic_error);
// otherwise `result` is handled as a CallToolResult (see MCP). The JSON-RPC
// error code (-32029, -32028, -32027) is never used to classify.
func (x Extractor) JSONRPC(envelope []byte) *Result {
	r := &Result{}
	v, ok := parse(envelope, r)
	if !ok {
		return r
	}
	if e := v.get("error"); e.truthy() {
		var f found
		if ae := e.get("data").get("adcp_error"); ae.present() {
			x.setError(r, &f, ae, "error.data.adcp_error")
		}
		r.finish(&f, true)
		return r
	}
	x.mcpResult(v.get("result"), r, "result.")
	return r
}
