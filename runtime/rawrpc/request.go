package rawrpc

import (
	"encoding/json"
	"net/http"
)

// RequestID returns the IDKey of the JSON-RPC request in an HTTP request's
// body, read through GetBody so req is left unchanged. ok is false for a
// notification, a batch, or a body that cannot be read again.
func RequestID(req *http.Request) (key string, ok bool) {
	if req.GetBody == nil {
		return "", false
	}
	body, err := req.GetBody()
	if err != nil {
		return "", false
	}
	defer body.Close()
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.NewDecoder(body).Decode(&probe) != nil || probe.ID == nil {
		return "", false
	}
	key, err = IDKey(probe.ID)
	return key, err == nil
}
