package seller

import (
	"bytes"
	"errors"
	"io"
	"net/http"
)

// rpcEnvelopeSlack is what a JSON-RPC request may add to a call's
// arguments (method, id, params and the transport's own members).
const rpcEnvelopeSlack = 64 << 10

// ReadRPCBody reads the body of a POST for a transport's gate, which must
// see the exact bytes before an SDK decodes them, capped at
// MaxRequestBytes plus the JSON-RPC envelope; it puts the bytes back in
// r.Body for the SDK behind the gate. A body over the cap is answered 413
// and one that cannot be read 400, and ok is false. Other methods read
// nothing: nil, true.
func (s *Server) ReadRPCBody(w http.ResponseWriter, r *http.Request) (body []byte, ok bool) {
	if r.Method != http.MethodPost || r.Body == nil {
		return nil, true
	}
	limit := int64(s.maxBytes) + rpcEnvelopeSlack
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
			return nil, false
		}
		http.Error(w, "cannot read the request", http.StatusBadRequest)
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, true
}
