package mcpclient

import (
	"mime"
	"net/http"

	"github.com/adcpgen/adcpgen/internal/bodytap"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
)

// wrapHTTP returns a copy of hc (nil means http.DefaultClient) whose
// transport records responses. hc itself is not changed.
func (r *recorder) wrapHTTP(hc *http.Client) *http.Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	cp := *hc
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp.Transport = &recordingTransport{base: base, rec: r}
	return &cp
}

type recordingTransport struct {
	base http.RoundTripper
	rec  *recorder
}

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if cl := claimFor(req.Context(), t.rec); cl != nil && req.Method == http.MethodPost {
		if key, ok := rawrpc.RequestID(req); ok {
			t.rec.register(cl, key)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch media {
	case "application/json":
		resp.Body = bodytap.Tap(resp.Body, bodytap.WholeBody(t.rec.record))
	case "text/event-stream":
		resp.Body = bodytap.Tap(resp.Body, bodytap.MCPEvents(t.rec.record))
	}
	return resp, nil
}
