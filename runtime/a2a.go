package runtime

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// A2A extraction (seed 004, extended to A2A 1.0 as the published vectors
// show): Parts with or without "kind", TASK_STATE_* state names, and stream
// envelopes {task}, {statusUpdate}, {message}, {artifactUpdate}.

// streamKeys are the members of an A2A 1.0 stream response / push payload,
// in the order they are looked for.
var streamKeys = [...]string{"task", "statusUpdate", "message", "artifactUpdate"}

// a2aTask is the part of a task or status event extraction reads, looked
// up in one pass.
type a2aTask struct {
	status    jval
	artifacts jval
	// envelope: the object is itself a stream envelope (see unwrapStream).
	envelope bool
}

var a2aTaskKeys = []string{"status", "artifacts", "task", "statusUpdate", "message", "artifactUpdate"}

func readTask(v jval) a2aTask {
	var f [6]jval
	v.fields(a2aTaskKeys, f[:])
	t := a2aTask{status: f[0], artifacts: f[1]}
	for _, m := range f[2:] {
		t.envelope = t.envelope || m.isObject()
	}
	return t
}

// unwrapStream unwraps one stream envelope: an object with a task,
// statusUpdate, message or artifactUpdate member holding an object. key is
// that member's name ("" when v is not an envelope). nested reports an
// inner object that is itself such an envelope: it yields nothing, since
// only one level is ever unwrapped.
func unwrapStream(v jval) (task a2aTask, key string, nested bool) {
	inner, key := streamMember(v)
	if key == "" {
		t := readTask(v)
		t.envelope = false
		return t, "", false
	}
	task = readTask(inner)
	return task, key, task.envelope
}

func streamMember(v jval) (jval, string) {
	var found [len(streamKeys)]jval
	v.fields(streamKeys[:], found[:])
	for i, m := range found {
		if m.isObject() {
			return m, streamKeys[i]
		}
	}
	return nil, ""
}

// NormalizeA2AState maps an A2A task state to the AdCP spelling: the A2A 1.0
// prefix TASK_STATE_ is removed, ASCII letters lowered and '_' replaced by
// '-', so TASK_STATE_INPUT_REQUIRED becomes input-required.
func NormalizeA2AState(s string) string {
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
	s, ok := t.status.get("state").str()
	if !ok {
		return ""
	}
	return NormalizeA2AState(s)
}

// dataPart returns a part's data when the part is a DataPart: any part whose
// data is a non-null, non-array object, with or without "kind".
func dataPart(p jval) jval {
	if d := p.get("data"); d.isObject() {
		return d
	}
	return nil
}

// isWrapper reports the framework-wrapper bug: a single key "response"
// holding a non-null, non-array object.
func isWrapper(data jval) bool {
	return data.onlyKey("response") && data.get("response").isObject()
}

// a2aData is the extraction of seed 004 on an unwrapped task or event.
func a2aData(task a2aTask, prefix string) (data jval, path string, err error) {
	state := task.state()
	switch {
	case isFinalState(state):
		i, last := -1, -1
		var lastData jval
		task.artifacts.index(0).get("parts").elems(func(p jval) bool {
			i++
			if d := dataPart(p); d != nil {
				lastData, last = d, i
			}
			return true
		})
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

func firstMessageDataPart(task a2aTask, prefix string) (jval, string) {
	var data jval
	i := -1
	task.status.get("message").get("parts").elems(func(p jval) bool {
		i++
		data = dataPart(p)
		return data == nil
	})
	if data == nil {
		return nil, ""
	}
	return data, prefix + "status.message.parts[" + strconv.Itoa(i) + "].data"
}

// A2AData is seed 004's extractAdcpResponseFromA2A over a Task,
// TaskStatusUpdateEvent or single stream envelope: the data, or nil. A
// wrapper returns an error wrapping ErrWrapperDetected; invalid JSON one
// wrapping ErrInvalidJSON.
func A2AData(envelope []byte) (json.RawMessage, error) {
	r := ExtractA2A(envelope)
	if r.Problem == ProblemInvalidJSON || r.Problem == ProblemWrapperDetected {
		return nil, r.Err
	}
	return r.Data, nil
}

// A2A extracts from an A2A Task or TaskStatusUpdateEvent, first unwrapping
// one stream envelope (a nested one yields no data):
//   - Data: final states (completed, failed, canceled, rejected) take the
//     last DataPart of artifacts[0], else the first DataPart of
//     status.message; interim states (working, submitted, input-required,
//     auth-required) the first DataPart of status.message; other states
//     nothing. A final-state {response: {...}} wrapper is ErrWrapperDetected
//     (problem wrapper_detected), never unwrapped.
//   - Error: the first adcp_error in artifacts[*].parts[*].data, then in
//     status.message.parts[*].data; the first found decides, even when it
//     fails validation.
//   - Action: the error's, else generic_error for failed and rejected tasks.
func (x Extractor) A2A(envelope []byte) *Result {
	r := &Result{}
	v, ok := parse(envelope, r)
	if !ok {
		return r
	}
	x.a2aResult(v, r)
	return r
}

func (x Extractor) a2aResult(v jval, r *Result) {
	var f found
	task, key, nested := unwrapStream(v)
	prefix := ""
	if key != "" {
		prefix = key + "."
	}
	r.State = task.state()
	if !nested {
		data, path, err := a2aData(task, prefix)
		if err != nil {
			r.Problem, r.Err = ProblemWrapperDetected, err
		} else if data != nil {
			r.Data, r.DataPath = data.raw(), path
		}
		x.a2aError(task, r, &f, prefix)
	}
	r.finish(&f, r.State == "failed" || r.State == "rejected")
}

// a2aError scans every artifact's DataParts, then status.message's, for a
// truthy adcp_error, and reports whether it found one (valid or not).
func (x Extractor) a2aError(task a2aTask, r *Result, f *found, prefix string) bool {
	done := false
	ai := -1
	task.artifacts.elems(func(a jval) bool {
		ai++
		pi := -1
		a.get("parts").elems(func(p jval) bool {
			pi++
			if ae := dataPart(p).get("adcp_error"); ae.truthy() {
				x.setError(r, f, ae, fmt.Sprintf("%sartifacts[%d].parts[%d].data.adcp_error", prefix, ai, pi))
				done = true
			}
			return !done
		})
		return !done
	})
	if done {
		return true
	}
	pi := -1
	task.status.get("message").get("parts").elems(func(p jval) bool {
		pi++
		if ae := dataPart(p).get("adcp_error"); ae.truthy() {
			x.setError(r, f, ae, fmt.Sprintf("%sstatus.message.parts[%d].data.adcp_error", prefix, pi))
			done = true
		}
		return !done
	})
	return done
}

// A2AFileURIs lists the URIs of an A2A task's FileParts (part.file.uri as in
// A2A 0.x, part.url as in 1.0), in artifacts and in status.message, so they
// can be checked with CheckSellerURL before use.
func A2AFileURIs(envelope []byte) ([]string, error) {
	v, err := parseDocument(envelope)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidJSON, err)
	}
	task, _, nested := unwrapStream(v)
	if nested {
		return nil, nil
	}
	var out []string
	collect := func(p jval) bool {
		for _, u := range []jval{p.get("file").get("uri"), p.get("url")} {
			if s, ok := u.str(); ok {
				out = append(out, s)
			}
		}
		return true
	}
	task.artifacts.elems(func(a jval) bool {
		a.get("parts").elems(collect)
		return true
	})
	task.status.get("message").get("parts").elems(collect)
	return out, nil
}
