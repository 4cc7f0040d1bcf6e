package signing_test

import (
	"net/http/httptest"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

func TestPolicy(t *testing.T) {
	for _, c := range []struct {
		name string
		p    signing.OperationPolicy
		ok   bool
	}{
		{"valid", signing.OperationPolicy{SupportedFor: []string{"create_media_buy", "sync_creatives"}, RequiredFor: []string{"create_media_buy"}, WarnFor: []string{"sync_creatives"},
			ProtocolMethodsSupportedFor: []string{"tasks/cancel"}, ProtocolMethodsRequiredFor: []string{"tasks/cancel"}}, true},
		{"method in the operation list", signing.OperationPolicy{SupportedFor: []string{"tasks/cancel"}}, false},
		{"operation in the method list", signing.OperationPolicy{ProtocolMethodsSupportedFor: []string{"create_media_buy"}}, false},
		{"required but not supported", signing.OperationPolicy{RequiredFor: []string{"create_media_buy"}}, false},
		{"warn and required", signing.OperationPolicy{SupportedFor: []string{"a"}, WarnFor: []string{"a"}, RequiredFor: []string{"a"}}, false},
	} {
		if err := c.p.Validate(); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	p := signing.OperationPolicy{SupportedFor: []string{"a", "b", "c"}, WarnFor: []string{"b"}, RequiredFor: []string{"a"},
		ProtocolMethodsSupportedFor: []string{"tasks/cancel"}, ProtocolMethodsRequiredFor: []string{"tasks/cancel"}}
	for _, c := range []struct {
		call signing.Invocation
		want signing.Mode
	}{
		{signing.Invocation{Operation: "a"}, signing.ModeRequired},
		{signing.Invocation{Operation: "b"}, signing.ModeWarn},
		{signing.Invocation{Operation: "c"}, signing.ModeSupported},
		{signing.Invocation{Operation: "d"}, signing.ModeNone},
		{signing.Invocation{Method: "tasks/cancel"}, signing.ModeRequired},
		// The namespaces never cross: a tools/call named tasks/cancel is not the method.
		{signing.Invocation{Operation: "tasks/cancel"}, signing.ModeNone},
		{signing.Invocation{Method: "a"}, signing.ModeNone},
	} {
		if got := p.Mode(c.call); got != c.want {
			t.Errorf("%+v: %s, want %s", c.call, got, c.want)
		}
	}
	for body, want := range map[string]signing.Invocation{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy"}}`: {Operation: "create_media_buy"},
		`{"jsonrpc":"2.0","id":1,"method":"tasks/cancel","params":{"taskId":"t"}}`:            {Method: "tasks/cancel"},
		`{"jsonrpc":"2.0","id":1}`: {},
		`not json`:                 {},
	} {
		if got := signing.InvocationFromJSONRPC([]byte(body)); got != want {
			t.Errorf("%s: %+v", body, got)
		}
	}
}

func TestChallenge(t *testing.T) {
	w := httptest.NewRecorder()
	signing.WriteChallenge(w, &signing.Rejection{Code: signing.CodeReplayed, Reason: "internal detail"})
	if w.Code != 401 || w.Header().Get("WWW-Authenticate") != `Signature error="request_signature_replayed"` {
		t.Fatalf("%d %q", w.Code, w.Header().Get("WWW-Authenticate"))
	}
	if body := w.Body.String(); body != `{"error":"request_signature_replayed"}` {
		t.Fatalf("the body echoes more than the code: %s", body)
	}
	for v, want := range map[string]signing.Code{
		`Signature error="webhook_signature_invalid"`:            signing.CodeWebhookInvalid,
		`signature realm="x", error="request_signature_invalid"`: signing.CodeInvalid,
		`Bearer error="invalid_token"`:                           "",
		`Signature realm="x"`:                                    "",
	} {
		got, ok := signing.ParseChallenge(v)
		if got != want || ok != (want != "") {
			t.Errorf("%s: %q %v", v, got, ok)
		}
	}
}
