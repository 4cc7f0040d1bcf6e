package extract

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// A2A response extraction, extended to A2A 1.0 as the published vectors
// show: Parts with or without "kind", TASK_STATE_* state names, and stream
// envelopes {task}, {statusUpdate}, {message}, {artifactUpdate}.

// streamKeys are the members of an A2A 1.0 stream response / push payload,
// in the order they are looked for.
var streamKeys = [...]string{"task", "statusUpdate", "message", "artifactUpdate"}

// a2aTask is the part of a task or status event extraction reads, looked
// up in one pass.
type a2aTask struct {
	// obj is the task, event or message itself.
	obj       wire.Lenient
	status    wire.Lenient
	artifacts wire.Lenient
	// envelope: the object is itself a stream envelope (see unwrapStream).
	envelope bool
	// Members of a JSON-RPC response.
	jsonrpc, rpcResult, rpcError wire.Lenient
	// taskMembers: a member of a task, an event or a stream envelope is
	// present.
	taskMembers bool
	// parts holds artifactData's reading, shared by the task's copies.
	parts *[][]wire.Lenient
}

var a2aTaskKeys = []string{"status", "artifacts", "task", "statusUpdate", "message", "artifactUpdate", "jsonrpc", "result", "error"}

func readTask(v wire.Lenient) a2aTask {
	var f [9]wire.Lenient
	v.Fields(a2aTaskKeys, f[:])
	t := a2aTask{obj: v, status: f[0], artifacts: f[1], jsonrpc: f[6], rpcResult: f[7], rpcError: f[8], parts: new([][]wire.Lenient)}
	for i, m := range f[:6] {
		t.envelope = t.envelope || (i >= 2 && m.IsObject())
		t.taskMembers = t.taskMembers || m.Present()
	}
	return t
}

func (t a2aTask) isJSONRPC() bool {
	return t.jsonrpc.Present() || ((t.rpcResult.Present() || t.rpcError.Present()) && !t.taskMembers)
}

// unwrapStream unwraps one stream envelope: an object with a task,
// statusUpdate, message or artifactUpdate member holding an object. key is
// that member's name ("" when v is not an envelope). nested reports an
// inner object that is itself such an envelope: it yields nothing, since
// only one level is ever unwrapped.
func unwrapStream(v wire.Lenient) (task a2aTask, key string, nested bool) {
	inner, key := streamMember(v)
	if key == "" {
		t := readTask(v)
		t.envelope = false
		return t, "", false
	}
	task = readTask(inner)
	return task, key, task.envelope
}

func streamMember(v wire.Lenient) (wire.Lenient, string) {
	var found [len(streamKeys)]wire.Lenient
	v.Fields(streamKeys[:], found[:])
	for i, m := range found {
		if m.IsObject() {
			return m, streamKeys[i]
		}
	}
	return nil, ""
}

// normalizeState maps an A2A task state to the AdCP spelling: the A2A 1.0
// prefix TASK_STATE_ is removed, ASCII letters lowered and '_' replaced by
// '-', so TASK_STATE_INPUT_REQUIRED becomes input-required.
func normalizeState(s string) string {
	s = strings.TrimPrefix(s, "TASK_STATE_")
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = c + ('a' - 'A')
		case c == '_':
			b[i] = '-'
		}
	}
	return string(b)
}

// A2A task states as the runtime classifies them.
func isFinalState(s string) bool {
	return s == "completed" || s == "failed" || s == "canceled" || s == "rejected"
}

func isInterimState(s string) bool {
	return s == "working" || s == "submitted" || s == "input-required" || s == "auth-required"
}

// state reads status.state, normalised; "" when absent or not a string.
func (t a2aTask) state() string {
	s, ok := t.status.Get("state").AsString()
	if !ok {
		return ""
	}
	return normalizeState(s)
}

// artifactData is, for each element of artifacts, the data of each
// element of its parts (dataPart: nil for a part that is no DataPart),
// read once for the task: the data extraction and the error search both
// walk them, and each lookup in an artifact or a part is a pass over the
// payload it holds.
func (t a2aTask) artifactData() [][]wire.Lenient {
	if t.parts == nil {
		t.parts = new([][]wire.Lenient)
	}
	if *t.parts == nil {
		arts := [][]wire.Lenient{}
		t.artifacts.Elems(func(a wire.Lenient) bool {
			var data []wire.Lenient
			a.Get("parts").Elems(func(p wire.Lenient) bool {
				data = append(data, dataPart(p))
				return true
			})
			arts = append(arts, data)
			return true
		})
		*t.parts = arts
	}
	return *t.parts
}

// dataPart returns a part's data when the part is a DataPart: any part whose
// data is a non-null, non-array object, with or without "kind".
func dataPart(p wire.Lenient) wire.Lenient {
	if d := p.Get("data"); d.IsObject() {
		return d
	}
	return nil
}

// isWrapper reports the framework-wrapper bug: a single key "response"
// holding a non-null, non-array object.
func isWrapper(data wire.Lenient) bool {
	return data.OnlyKey("response") && data.Get("response").IsObject()
}

// a2aData is A2A response extraction on an unwrapped task or event.
func a2aData(task a2aTask, prefix string) (data wire.Lenient, path string, err error) {
	state := task.state()
	switch {
	case isFinalState(state):
		last := -1
		var lastData wire.Lenient
		if arts := task.artifactData(); len(arts) > 0 {
			for i, d := range arts[0] {
				if d != nil {
					lastData, last = d, i
				}
			}
		}
		if lastData != nil {
			data, path = lastData, prefix+"artifacts[0].parts["+strconv.Itoa(last)+"].data"
		} else {
			data, path = firstMessageDataPart(task, prefix)
		}
		if data != nil && isWrapper(data) {
			return nil, "", fmt.Errorf("%w at %s", ErrWrapperDetected, path)
		}
		return data, path, nil
	case isInterimState(state):
		data, path = firstMessageDataPart(task, prefix)
		return data, path, nil
	}
	return nil, "", nil // no state, or a state this runtime does not know
}

func firstMessageDataPart(task a2aTask, prefix string) (wire.Lenient, string) {
	var data wire.Lenient
	i := -1
	task.status.Get("message").Get("parts").Elems(func(p wire.Lenient) bool {
		i++
		data = dataPart(p)
		return data == nil
	})
	if data == nil {
		return nil, ""
	}
	return data, prefix + "status.message.parts[" + strconv.Itoa(i) + "].data"
}

// A2A extracts from what an A2A client holds: a Task or
// TaskStatusUpdateEvent, a stream response or push payload (one envelope
// {"task"}, {"statusUpdate"}, {"message"} or {"artifactUpdate"} is
// unwrapped; a nested one yields nothing), or the whole JSON-RPC response
// holding either (a truthy "error" is read for error.data.adcp_error, as
// MCP does). A2A response extraction and the A2A binding of AdCP's
// transport error mapping apply:
//   - Data: final states (completed, failed, canceled, rejected) take the
//     last DataPart of artifacts[0], else the first DataPart of
//     status.message; interim states (working, submitted, input-required,
//     auth-required) the first DataPart of status.message; other states
//     nothing. A final-state {response: {...}} wrapper is the
//     ErrWrapperDetected problem, never unwrapped.
//   - Error: the first adcp_error in artifacts[*].parts[*].data, then in
//     status.message.parts[*].data; the first found decides, even when it
//     fails validation.
//   - Action: the error's, else generic_error for failed and rejected tasks.
func (x *Extractor) A2A(envelope []byte) *Result {
	r := &Result{}
	v, ok := parse(envelope, r)
	if !ok {
		return r
	}
	const want = "an A2A task, a stream response or a JSON-RPC response holding one"
	t := readTask(v)
	switch {
	case !v.IsObject():
		r.shape = describe(v, want)
	case t.isJSONRPC():
		r.Form = FormJSONRPC
		if e := t.rpcError; e.Truthy() {
			x.jsonrpcError(e, r)
			return r
		}
		if res := t.rpcResult; !res.IsObject() {
			r.shape = "JSON-RPC result: " + describe(res, "an A2A task or a stream response")
		}
		x.a2aResult(t.rpcResult, r, "result.")
	default:
		switch {
		case t.envelope:
			r.Form = FormStream
		case t.taskMembers:
			r.Form = FormTask
		default:
			r.shape = describe(v, want)
		}
		x.a2aResult(v, r, "")
	}
	return r
}

func (x *Extractor) a2aResult(v wire.Lenient, r *Result, prefix string) {
	var f found
	task, key, nested := unwrapStream(v)
	if key != "" {
		prefix += key + "."
	}
	r.State = task.state()
	if !nested {
		if task.obj.IsObject() {
			r.Task = task.obj
		}
		data, path, err := a2aData(task, prefix)
		if err != nil {
			r.Problem = err
		} else if data != nil {
			r.Data, r.DataPath = data.Raw(), path
		}
		x.a2aError(task, r, &f, prefix)
	}
	r.finish(&f, r.State == "failed" || r.State == "rejected")
}

// a2aError scans every artifact's DataParts, then status.message's, for a
// truthy adcp_error, and reports whether it found one (valid or not).
func (x *Extractor) a2aError(task a2aTask, r *Result, f *found, prefix string) bool {
	for ai, parts := range task.artifactData() {
		for pi, d := range parts {
			if ae := d.Get("adcp_error"); ae.Truthy() {
				x.setError(r, f, ae, fmt.Sprintf("%sartifacts[%d].parts[%d].data.adcp_error", prefix, ai, pi))
				return true
			}
		}
	}
	done := false
	pi := -1
	task.status.Get("message").Get("parts").Elems(func(p wire.Lenient) bool {
		pi++
		if ae := dataPart(p).Get("adcp_error"); ae.Truthy() {
			x.setError(r, f, ae, fmt.Sprintf("%sstatus.message.parts[%d].data.adcp_error", prefix, pi))
			done = true
		}
		return !done
	})
	return done
}

// A2AFileURIs lists the URIs of the FileParts of an A2A task, event or
// stream response (part.file.uri as in A2A 0.x, part.url as in 1.0), in
// artifacts and in status.message, so they can be checked with
// untrusted.CheckSellerURL before anyone follows them.
func A2AFileURIs(envelope []byte) ([]string, error) {
	v, err := wire.ParseLenient(envelope)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidJSON, err)
	}
	if t := readTask(v); t.isJSONRPC() {
		v = t.rpcResult
	}
	task, _, nested := unwrapStream(v)
	if nested {
		return nil, nil
	}
	var out []string
	collect := func(p wire.Lenient) bool {
		for _, u := range []wire.Lenient{p.Get("file").Get("uri"), p.Get("url")} {
			if s, ok := u.AsString(); ok {
				out = append(out, s)
			}
		}
		return true
	}
	task.artifacts.Elems(func(a wire.Lenient) bool {
		a.Get("parts").Elems(collect)
		return true
	})
	task.status.Get("message").Get("parts").Elems(collect)
	return out, nil
}
