package seller_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest/adcpt"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// ReadRPCBody: the bytes the gate sees are the bytes the SDK behind it
// reads, a body past MaxRequestBytes plus the envelope is 413, and a GET
// reads nothing.
func TestReadRPCBody(t *testing.T) {
	srv, err := seller.New(adcpt.Spec(), seller.Config{MaxRequestBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	small := `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`
	huge := strings.Repeat(" ", 100+64<<10+1)
	for _, tc := range []struct {
		name, method, body string
		ok                 bool
		status             int
	}{
		{"a call", http.MethodPost, small, true, http.StatusOK},
		{"the cap exactly", http.MethodPost, huge[1:], true, http.StatusOK},
		{"past the cap", http.MethodPost, huge, false, http.StatusRequestEntityTooLarge},
		{"a GET", http.MethodGet, "", true, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest(tc.method, "/mcp", strings.NewReader(tc.body))
			body, ok := srv.ReadRPCBody(w, r)
			if ok != tc.ok || w.Code != tc.status {
				t.Fatalf("ok %v, status %d; want %v, %d", ok, w.Code, tc.ok, tc.status)
			}
			if !ok || tc.method != http.MethodPost {
				if body != nil {
					t.Fatalf("body %d bytes, want none", len(body))
				}
				return
			}
			again, _ := io.ReadAll(r.Body)
			if string(body) != tc.body || string(again) != tc.body {
				t.Fatalf("read %d bytes, r.Body then has %d; want %d both", len(body), len(again), len(tc.body))
			}
		})
	}
}
