package mcpclient

import (
	"errors"
	"mime"
	"net"
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
	cl := claimFor(req.Context(), t.rec)
	if cl != nil && req.Method == http.MethodPost {
		if key, ok := rawrpc.RequestID(req); ok {
			t.rec.register(cl, key)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if cl != nil && req.Method == http.MethodPost {
		switch {
		case err != nil:
			t.rec.attempted(cl, !notSent(err), 0)
		default:
			t.rec.attempted(cl, true, resp.StatusCode)
		}
	}
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

// notSent reports a round trip that failed before the request left: the
// connection could not be made.
func notSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
