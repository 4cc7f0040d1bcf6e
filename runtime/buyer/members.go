package buyer

import (
	"errors"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The request bytes the client sends are the strict encoder's output (or a
// caller's JSON object checked with wire.Valid), read once. The client adds
// the members AdCP asks of it (idempotency_key, context_id) into those
// bytes instead of re-encoding, so what the caller's value encoded to is
// sent unchanged around them.

var errNotObject = errors.New("the request is not a JSON object")

// requestObject reads the request's JSON object.
func requestObject(args []byte) (wire.Lenient, error) {
	obj, err := wire.ParseLenient(args)
	if err != nil {
		return nil, err
	}
	if !obj.IsObject() {
		return nil, errNotObject
	}
	return obj, nil
}

// withMember returns obj with its top-level member name set to value
// (JSON), replacing its value when present, else added first. obj is a
// request object requestObject read, or one this function returned: the
// result is an object the reader accepts, so it is not read again.
func withMember(obj wire.Lenient, name string, value []byte) wire.Lenient {
	out, _ := obj.WithMember(name, value)
	return out
}
