package a2aclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"

	"github.com/adcpgen/adcpgen/internal/bodytap"
	"github.com/adcpgen/adcpgen/runtime/internal/propagate"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
)

// wrapHTTP returns a copy of hc (nil means http.DefaultClient) whose
// transport records the responses of calls that carry a slot.
func wrapHTTP(hc *http.Client) *http.Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	cp := *hc
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp.Transport = &recordingTransport{base: base}
	return &cp
}

type recordingTransport struct{ base http.RoundTripper }

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	s := slotFrom(req.Context())
	if s == nil || req.Method != http.MethodPost {
		return t.base.RoundTrip(req)
	}
	req = propagate.WithHeaders(req, s.trace)
	id, ok := rawrpc.RequestID(req)
	if !ok {
		return t.base.RoundTrip(req)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		s.failed(!notSent(err))
		return resp, err
	}
	s.sent(id, resp.StatusCode)
	if resp.Body == nil {
		return resp, nil
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch media {
	case "text/event-stream":
		resp.Body = bodytap.Tap(resp.Body, bodytap.DataLines(s.add))
	default:
		// Read it all now: a2a-go closes a non-200 body unread, and reads
		// only the first JSON value of a 200 one.
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if media == "application/json" || json.Valid(body) {
			if r, err := rawrpc.Parse(body); err == nil {
				s.addParsed(body, r)
				if st := stub(r); st != nil {
					body = st
				}
			} else {
				s.add(body)
			}
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
	}
	return resp, nil
}

// notSent reports a round trip that failed before the request left: the
// connection could not be made.
func notSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// stub is what a2a-go is handed instead of a recorded result: the same id
// and a task that says nothing. The typed call reads the recorded bytes,
// and a2a-go's verdict only when nothing was recorded, so decoding the
// seller's result into a2a-go's maps as well would cost time and memory
// for nothing (that decoding was most of a large answer's cost to the
// buyer). Errors pass unchanged.
func stub(r *rawrpc.Response) []byte {
	if r.Result == nil || r.Error != nil {
		return nil
	}
	out := make([]byte, 0, 128+len(r.ID))
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, r.ID...)
	return append(out, `,"result":{"kind":"task","id":"recorded","contextId":"recorded","status":{"state":"unknown"}}}`...)
}
