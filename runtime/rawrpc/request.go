package rawrpc

import (
	"io"
	"net/http"

	"github.com/adcpgen/adcpgen/runtime/wire"
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
	data, err := io.ReadAll(body)
	if err != nil {
		return "", false
	}
	v, err := wire.ParseLenient(data)
	if err != nil {
		return "", false
	}
	id := v.Get("id")
	if !id.Present() {
		return "", false
	}
	key, err = IDKey(id.Raw())
	return key, err == nil
}
