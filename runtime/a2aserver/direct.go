package a2aserver

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/a2aproject/a2a-go/a2a"

	"github.com/adcpgen/adcpgen/runtime/internal/stdjson"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// The direct path. a2a-go writes a message/send answer with encoding/json,
// which marshals the task's DataPart (a map of the answer's members) and
// compacts its bytes again at each layer that has a MarshalJSON (the part,
// the task, the response): most of a large answer's cost. For a
// message/send that a2a-go reads without error, the handler serves it as
// OnSendMessage would (the same answer, the same task) and writes the
// response a2a-go would write, byte for byte: encoding/json encodes the
// task with each DataPart's data standing in as a marker, and each marker
// is replaced by the data's members as encoding/json writes a map of them
// (stdjson.AppendMembers). TestDirectSendsA2AGoBytes holds the two paths
// to each other. Everything else (message/stream, tasks/*, a request
// a2a-go refuses) goes to a2a-go as before.

// rpcRequest and rpcResponse are a2a-go's JSON-RPC envelopes, field for
// field, so that they are read and written as it reads and writes them.
type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
	ID      any             `json:"id"`
}

type rpcResponse struct {
	JSONRPC string `json:"jsonrpc"`
	ID      any    `json:"id"`
	Result  any    `json:"result,omitempty"`
}

// markerKey is the one key of the data a DataPart holds while the task is
// encoded (a NUL first: no member of an answer's body is written so), which
// encoding/json writes as markerText, then the object's index.
const (
	markerKey  = "\x00adcpgen-data"
	markerText = `{"\u0000adcpgen-data":`
)

// serveDirect answers a message/send as a2a-go would; false leaves the
// request to a2a-go. ctx carries what the gate admitted.
func (h *handler) serveDirect(w http.ResponseWriter, ctx context.Context, body []byte) bool {
	var req rpcRequest
	if body == nil || json.NewDecoder(bytes.NewReader(body)).Decode(&req) != nil || req.JSONRPC != "2.0" || req.Method != "message/send" {
		return false
	}
	var params a2a.MessageSendParams
	if json.Unmarshal(req.Params, &params) != nil {
		return false // a2a-go's parse error
	}
	a, contextID, legacy := h.answer(ctx, &params)
	h.served.Add(1)
	allCompleted := h.opts.TaskStates.allCompleted(legacy)
	// The body's members, read once: for its own status and for its data.
	var members []stdjson.Member
	own := false
	if a.Error == nil {
		if spans := a.Spans(); spans != nil {
			members = stdjson.MembersAt(a.Body, spans) // as the seller encoded it: no pass over the body
		} else {
			members = stdjson.Members(a.Body)
		}
		own = ownStatusIs(a, stdjson.Get(members, "status"))
	}
	var objs [][]byte
	task := taskOf(a, contextID, h.now(), allCompleted, own, func(obj []byte) map[string]any {
		objs = append(objs, obj)
		return map[string]any{markerKey: len(objs) - 1}
	})
	buf := bufs.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooled {
			bufs.Put(buf)
		}
	}()
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: task}); err != nil {
		h.srv.Logger().ErrorContext(ctx, "adcp: a2a message/send: encoding the response", "err", err.Error())
		return true // a2a-go logs it and sends nothing either
	}
	outBuf := outBufs.Get().(*[]byte)
	defer func() {
		if cap(*outBuf) <= maxPooled {
			outBufs.Put(outBuf)
		}
	}()
	out, ok := unmark((*outBuf)[:0], buf.Bytes(), objs, markers(task), a, members)
	*outBuf = out[:0]
	if !ok { // a marker's text elsewhere: the task as a2a-go encodes it
		buf.Reset()
		_ = json.NewEncoder(buf).Encode(rpcResponse{JSONRPC: "2.0", ID: req.ID, Result: TaskOf(a, contextID, h.now(), allCompleted)})
		out = buf.Bytes()
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/plain; charset=utf-8") // what net/http sniffs of a2a-go's JSON
	hd.Set("Content-Length", strconv.Itoa(len(out)))
	_, _ = w.Write(out)
	return true
}

// bufs and outBufs keep the encoding and the response of a call for the
// next one, up to maxPooled bytes each.
var (
	bufs    = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	outBufs = sync.Pool{New: func() any { return new([]byte) }}
)

const maxPooled = 1 << 20

// unmark appends enc to out with each marker replaced by the members of
// the object it stands for, as encoding/json writes a map of them; the
// answer's own body has its members read already (body), and when the
// seller encoded it compact its values are copied without a pass of their
// own (stdjson.AppendMembers). ok is false when enc holds a marker's text
// other than the want the task's parts put there.
func unmark(out, enc []byte, objs [][]byte, want int, a *seller.Answer, body []stdjson.Member) ([]byte, bool) {
	if bytes.Count(enc, []byte(markerText)) != want {
		return out, false
	}
	for {
		i := bytes.Index(enc, []byte(markerText))
		if i < 0 {
			return append(out, enc...), true
		}
		out = append(out, enc[:i]...)
		rest := enc[i+len(markerText):]
		j := bytes.IndexByte(rest, '}')
		if j < 0 {
			return out, false
		}
		n, err := strconv.Atoi(string(rest[:j]))
		if err != nil || n < 0 || n >= len(objs) {
			return out, false
		}
		if obj := objs[n]; body != nil && sameBytes(obj, a.Body) {
			out = stdjson.AppendMembers(out, body, a.Compact())
		} else {
			out = stdjson.AppendMembers(out, stdjson.Members(obj), false)
		}
		enc = rest[j+1:]
	}
}

// sameBytes reports whether a and b are the same bytes in memory.
func sameBytes(a, b []byte) bool { return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) }

// markers counts the DataParts holding a marker in a task's artifacts and
// status message (an interim answer's payload is in both).
func markers(t *a2a.Task) int {
	n := 0
	count := func(parts a2a.ContentParts) {
		for _, p := range parts {
			if d, ok := p.(a2a.DataPart); ok && d.Data[markerKey] != nil {
				n++
			}
		}
	}
	for _, art := range t.Artifacts {
		count(art.Parts)
	}
	if t.Status.Message != nil {
		count(t.Status.Message.Parts)
	}
	return n
}
