package rawrpc

import (
	"net/http"
	"strings"
	"testing"
)

func TestRequestID(t *testing.T) {
	tests := []struct {
		body, want string
		ok         bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`, "n:7", true},
		{`{"jsonrpc":"2.0","id":"a","method":"message/send"}`, "s:a", true},
		{`{"jsonrpc":"2.0","method":"notifications/cancelled"}`, "", false},
		{`[{"id":1}]`, "", false},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/", strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := RequestID(req)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("RequestID(%s) = %q, %v; want %q, %v", tt.body, got, ok, tt.want, tt.ok)
		}
	}
}
