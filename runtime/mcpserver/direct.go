package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/runtime/internal/stdjson"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The direct path. With Stateless and JSONResponse, each POST is a world
// of its own for go-sdk: it builds a session for it, runs the call, and
// writes one JSON-RPC response, re-encoding the answer's bytes at each of
// its layers (the text content, the CallToolResult, the response), which
// was most of a large answer's cost. For a tools/call whose every part
// go-sdk would take as it is, the gate's handler calls the seller itself
// (the same Serve, after the same gate, with the same principal, signer
// and request context) and writes the response go-sdk would have written
// for the same answer, byte for byte (stdjson writes encoding/json's
// bytes; TestDirectSendsGoSDKBytes holds the two paths to each other).
// Anything else (another method, a batch, a session, an SSE stream, a
// protocol version from 2026-07-28, headers go-sdk would refuse or read,
// params beyond a name and arguments) goes to go-sdk as before.
type direct struct {
	srv   *seller.Server
	opts  Options
	tools map[string]bool // the tools NewServer registered with go-sdk
	// served counts the calls the direct path answered (tests read it).
	served atomic.Int64
}

// newDirect returns the direct path of a streamable handler, nil when its
// options keep go-sdk's framing or reach into the calls.
func newDirect(srv *seller.Server, opts Options, tools map[string]bool) *direct {
	if !opts.Stateless || !opts.JSONResponse || !directServerOptions(opts.Server) {
		return nil
	}
	return &direct{srv: srv, opts: opts, tools: tools}
}

// directServerOptions reports go-sdk server options that leave a stateless
// tools/call alone: the handshake's and the lists' settings, the handlers
// of other methods. Any other field set (a session id generator, keep-
// alives, cacheability hooks, a field a newer go-sdk adds) keeps go-sdk.
func directServerOptions(o *mcp.ServerOptions) bool {
	if o == nil {
		return true
	}
	cp := *o
	cp.Instructions, cp.Logger, cp.PageSize, cp.Capabilities = "", nil, 0, nil
	cp.InitializedHandler, cp.CompletionHandler = nil, nil
	cp.SubscribeHandler, cp.UnsubscribeHandler, cp.SchemaCache = nil, nil, nil
	return reflect.ValueOf(cp).IsZero()
}

// directVersions are the MCP-Protocol-Version values a stateless go-sdk
// server serves tools/call under with the same framing ("" is 2025-03-26
// to go-sdk). 2026-07-28 changes it (per-request _meta, standard headers)
// and stays with go-sdk.
var directVersions = map[string]bool{"": true, "2024-11-05": true, "2025-03-26": true, "2025-06-18": true, "2025-11-25": true}

// serve answers r when the direct path can; false leaves r untouched for
// go-sdk. body is the request's body (ReadRPCBody), adm what the gate
// admitted it with.
func (d *direct) serve(w http.ResponseWriter, r *http.Request, body []byte, adm seller.Admission) bool {
	if r.Method != http.MethodPost || len(body) > mcp.DefaultMaxRequestBodyBytes || !d.headers(r) {
		return false
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		return false
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != "tools/call" || !req.ID.IsValid() {
		return false
	}
	name, args, meta, ok := callParams(req.Params)
	if !ok || (servedInAny(d.srv, name) && !d.tools[name]) {
		return false // a tool registered after the server was built: go-sdk says it is unknown
	}
	p := adm.Principal
	if !p.Expiration.IsZero() && p.Expiration.Before(time.Now().Add(time.Second)) {
		return false // go-sdk drops an expired principal: it decides
	}
	// The envelope first: once the tool has run, the call is answered here.
	head, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage("0")})
	if err != nil || !bytes.HasSuffix(head, []byte(`,"result":0}`)) {
		return false
	}
	head = head[:len(head)-2]
	c := &seller.Call{Transport: seller.TransportMCP, Arguments: args, Meta: meta, Header: r.Header, Principal: p, Signer: adm.Signer}
	a := answer(r.Context(), d.srv, name, c)
	d.served.Add(1)

	buf := bufs.Get().(*[]byte)
	out := append((*buf)[:0], head...)
	out = appendResult(out, a, d.opts.TerseText)
	out = append(out, '}')
	h := w.Header()
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(out)))
	_, _ = w.Write(out)
	if cap(out) <= maxPooled {
		*buf = out
		bufs.Put(buf)
	}
	return true
}

// bufs holds response buffers, up to maxPooled bytes each: a large answer's
// buffer goes to the collector rather than stay pinned.
var bufs = sync.Pool{New: func() any { return new([]byte) }}

const maxPooled = 1 << 20

// headers reports a request go-sdk's stateless JSON handler would take as
// it is: a loopback server asked by a loopback host name (go-sdk refuses
// others, against DNS rebinding), a protocol version of directVersions,
// JSON posted, JSON and an event stream accepted (as AcceptJSONOnly makes
// it), no Last-Event-ID.
func (d *direct) headers(r *http.Request) bool {
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && local != nil && loopback(local.String()) && !loopback(r.Host) {
		return false
	}
	if !directVersions[r.Header.Get("Mcp-Protocol-Version")] || len(r.Header.Values("Last-Event-Id")) > 0 {
		return false
	}
	if media, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || media != "application/json" {
		return false
	}
	accept := r.Header.Values("Accept")
	if d.opts.AcceptJSONOnly { // acceptJSONOnly, as it would rewrite the header
		if first := r.Header.Get("Accept"); !strings.Contains(first, "text/event-stream") {
			if strings.TrimSpace(first) == "" {
				first = "application/json"
			}
			accept = []string{first + ", text/event-stream"}
		}
	}
	json, stream := accepts(accept)
	return json && stream
}

// accepts reads an Accept header's media ranges as go-sdk does: JSON and
// an event stream, by their types, their wildcards or */*.
func accepts(values []string) (json, stream bool) {
	for _, v := range values {
		for raw := range strings.SplitSeq(v, ",") {
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				json = true
			case "text/event-stream", "text/*":
				stream = true
			case "*/*":
				json, stream = true, true
			}
		}
	}
	return json, stream
}

// loopback reports a host (with or without a port) naming this machine.
func loopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// callParams reads tools/call params that hold a tool name, arguments
// that are an object (or none) and a _meta object (or none), nothing else,
// each member once and named plainly: what go-sdk reads as it is. The
// arguments keep their bytes. A _meta naming a progress token or a key of
// MCP's own (io.modelcontextprotocol/...) stays with go-sdk, which acts on
// them; any other (a trace context) is read into the map go-sdk would
// hand the handler.
func callParams(params json.RawMessage) (name string, args json.RawMessage, meta map[string]any, ok bool) {
	v, err := wire.ParseLenient(params)
	if err != nil || !v.IsObject() {
		return "", nil, nil, false
	}
	var sawName, sawArgs, sawMeta bool
	ok = true
	v.Members(func(k, val wire.Lenient) bool {
		switch string(k) {
		case `"name"`:
			name, ok = val.AsString()
			ok = ok && !sawName
			sawName = true
		case `"arguments"`:
			args, ok = val.Raw(), val.IsObject() && !sawArgs
			sawArgs = true
		case `"_meta"`:
			ok = val.IsObject() && !sawMeta && plainMeta(val) && json.Unmarshal(val, &meta) == nil
			sawMeta = true
		default:
			ok = false
		}
		return ok
	})
	return name, args, meta, ok && sawName
}

// plainMeta reports a _meta object without a progress token or a key of
// MCP's own, each key written plainly.
func plainMeta(meta wire.Lenient) bool {
	plain := true
	meta.Members(func(k, _ wire.Lenient) bool {
		name := string(k[1 : len(k)-1])
		plain = !strings.Contains(name, `\`) && name != "progressToken" && !strings.HasPrefix(name, "io.modelcontextprotocol/")
		return plain
	})
	return plain
}

// answer is the seller's answer to a call the transport made out: as the
// gate would have refused it, an anonymous call of a protected tool when
// nothing authenticated it (stdio, a handler mounted without the gate),
// else Serve's.
func answer(ctx context.Context, srv *seller.Server, name string, c *seller.Call) *seller.Answer {
	if c.Principal.Anonymous() && !srv.Public(name) && srv.Authenticated() {
		return seller.ErrorAnswer(srv.AuthRequired())
	}
	return srv.Serve(ctx, name, c)
}

// appendResult appends the JSON of ResultOf(a, terse) as go-sdk writes it
// (json.Marshal of the *mcp.CallToolResult): the text contents, then
// structuredContent, then isError.
// A body the seller encoded compact (seller.Answer.Compact) is copied as
// it is where go-sdk compacts it, and its text needs only its quotes and
// backslashes escaped, unless it holds what HTML escaping rewrites.
func appendResult(dst []byte, a *seller.Answer, terse bool) []byte {
	dst = append(dst, `{"content":[`...)
	var data []byte
	compact := false
	if a.Error != nil {
		data = errorObject(a)
		dst = appendText(dst, data)
		dst = append(dst, ',')
		dst = appendText(dst, seller.TerseText(a.Error))
	} else {
		data, compact = a.Body, a.Compact()
		switch {
		case terse:
			dst = appendText(dst, terseText(a))
		case compact:
			dst = append(dst, `{"type":"text","text":`...)
			dst = stdjson.AppendCompactText(dst, data)
			dst = append(dst, '}')
		default:
			dst = appendText(dst, data)
		}
	}
	dst = append(dst, `],"structuredContent":`...)
	switch {
	case len(data) == 0:
		dst = append(dst, "null"...) // as json.Marshal writes a nil json.RawMessage
	case compact:
		dst = stdjson.AppendCompact(dst, data)
	default:
		dst = stdjson.AppendRaw(dst, data)
	}
	if a.Error != nil {
		dst = append(dst, `,"isError":true`...)
	}
	return append(dst, '}')
}

func appendText[S []byte | string](dst []byte, text S) []byte {
	dst = append(dst, `{"type":"text","text":`...)
	dst = stdjson.AppendString(dst, text)
	return append(dst, '}')
}
