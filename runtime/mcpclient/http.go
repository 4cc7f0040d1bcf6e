package mcpclient

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"

	"github.com/adcpgen/adcpgen/internal/bodytap"
	"github.com/adcpgen/adcpgen/runtime/internal/propagate"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
	"github.com/adcpgen/adcpgen/runtime/wire"
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
	if cl != nil && len(cl.trace) > 0 {
		req = propagate.WithHeaders(req, cl.trace)
	}
	reqKey := ""
	if cl != nil && req.Method == http.MethodPost {
		if key, ok := rawrpc.RequestID(req); ok {
			t.rec.register(cl, key)
			reqKey = key
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
	switch {
	case media == "text/event-stream":
		resp.Body = &eventStub{body: resp.Body, rec: t.rec}
	case media == "application/json" && cl != nil && req.Method == http.MethodPost:
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if answered := t.rec.record(body); answered != nil {
			if s := stub(answered); s != nil {
				body = s
			}
		} else if r, err := rawrpc.Parse(body); err == nil && r.Error != nil && reqKey != "" && wire.Lenient(r.ID).IsNull() {
			// JSON-RPC 2.0: a server that cannot tell the request's id (a
			// body refused before it was read whole) answers with id null;
			// this POST carried one request, so it is the answer.
			t.rec.recordResponse(reqKey, r)
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
	case media == "application/json":
		resp.Body = bodytap.Tap(resp.Body, bodytap.WholeBody(t.rec.recordEach))
	}
	return resp, nil
}

// stub is what the SDK is handed instead of a recorded tools/call result:
// the same id and an empty CallToolResult. CallToolRaw reads the recorded
// bytes and only the SDK's error, so decoding the seller's result into
// the SDK's maps as well would cost time and memory for nothing (that
// decoding is most of a large result's cost). Errors pass unchanged: the
// SDK's verdict on them is kept.
func stub(r *rawrpc.Response) []byte {
	if r.Result == nil {
		return nil
	}
	out := make([]byte, 0, 64+len(r.ID))
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, r.ID...)
	return append(out, `,"result":{"content":[]}}`...)
}

// notSent reports a round trip that failed before the request left: the
// connection could not be made.
func notSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
