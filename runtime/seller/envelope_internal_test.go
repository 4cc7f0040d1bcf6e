package seller

import (
	"errors"
	"slices"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// fillEnvelopeInTurns is fillEnvelope as it was written before it took one
// pass: a lookup and a copy of the body per member, the release echoed,
// then the context echo and the message read from the result. The one-pass fillEnvelope must
// send the same bytes.
func fillEnvelopeInTurns(tool string, body []byte, env registry.Envelope, v envelopeValues, strict bool, ctxObj []byte) ([]byte, string, error) {
	obj := wire.Lenient(body)
	for _, m := range slices.Backward(registry.EnvelopeMembers()) {
		want := v.value(m)
		got := obj.Get(m)
		var out []byte
		switch {
		case env.Owns(m, v.status):
			switch {
			case want == nil:
				continue
			case !emptyMember(got):
				if jsonEqual(got, want) || !strict {
					continue
				}
				return nil, "", &EnvelopeError{Tool: tool, Member: m}
			}
			out, _ = obj.WithMember(m, want)
		case env.Declares(m) || env.Closed || got.Present() || want == nil:
			continue
		default:
			out, _ = obj.WithMember(m, want)
		}
		if out == nil {
			return nil, "", errors.New("not an object")
		}
		obj = out
	}
	if v.version != "" { // the release served, as echoVersion wrote it
		want := wire.AppendQuoted(nil, v.version)
		got := obj.Get(memberVersion)
		switch {
		case !emptyMember(got):
			if jsonEqual(got, want) {
				break
			}
			if strict {
				return nil, "", &EnvelopeError{Tool: tool, Member: memberVersion}
			}
			obj, _ = obj.WithMember(memberVersion, want)
		case !env.Closed:
			obj, _ = obj.WithMember(memberVersion, want)
		}
	}
	message := messageOf(obj.Get(registry.MemberMessage), env)
	if ctxObj != nil {
		obj, _ = obj.WithMember("context", ctxObj)
	}
	return obj, message, nil
}

func TestFillEnvelopeInOnePass(t *testing.T) {
	envelopes := []registry.Envelope{
		{},
		{Closed: true},
		{Members: registry.EnvelopeMembers()},
		{Members: []string{registry.MemberStatus, registry.MemberTaskID}, Statuses: []string{"submitted"}},
		{Members: []string{registry.MemberStatus}, Payload: []string{registry.MemberStatus, registry.MemberMessage}},
		{Payload: []string{registry.MemberMessage}, Closed: true},
	}
	bodies := []string{
		`{}`, `{ }`, `{"products":[{"product_id":"p"}],"context":{"old":1}}`,
		`{"status":"","task_id":"","message":"from the payload","products":[]}`,
		`{"status":"completed","context_id":"c-9","replayed":false}`,
		`{"status":"active","message":"hi","message":"again"}`,
		`{"status":"working"}`,
		`{"adcp_version":"3.1","products":[]}`, `{"adcp_version":"","a":1}`, `{"adcp_version":"9.9"}`,
	}
	values := []envelopeValues{
		{status: "completed"},
		{status: "completed", message: "Found 1 product", contextID: "ctx-1"},
		{status: "submitted", taskID: "t-1", replayed: true},
		{status: "working", taskID: "t-2", message: "on it <&>"},
		{status: "completed", version: "3.1"},
		{status: "submitted", taskID: "t-3", contextID: "c", version: "3.2-beta.5"},
	}
	contexts := [][]byte{nil, []byte(`{"correlation_id": "c-1"}`)}
	for _, env := range envelopes {
		for _, body := range bodies {
			for _, v := range values {
				for _, ctxObj := range contexts {
					for _, strict := range []bool{false, true} {
						want, wantMsg, wantErr := fillEnvelopeInTurns("t", []byte(body), env, v, strict, ctxObj)
						got, gotMsg, err := fillEnvelope("t", []byte(body), env, v, strict, ctxObj)
						if (err != nil) != (wantErr != nil) || string(got) != string(want) || gotMsg != wantMsg {
							t.Errorf("%+v %s %+v strict=%v context=%s:\ngot  %s %q %v\nwant %s %q %v",
								env, body, v, strict, ctxObj, got, gotMsg, err, want, wantMsg, wantErr)
						}
					}
				}
			}
		}
	}
}
