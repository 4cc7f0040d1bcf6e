package buyer

import (
	"errors"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The request bytes the client sends are the strict encoder's output (or a
// caller's JSON object checked with wire.Valid). The client adds the
// members AdCP asks of it (idempotency_key, context_id) into those bytes
// instead of re-encoding, so what the caller's value encoded to is sent
// unchanged around them.

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

// member returns the request's top-level member name, nil when absent.
func member(args []byte, name string) (wire.Lenient, error) {
	obj, err := requestObject(args)
	if err != nil {
		return nil, err
	}
	return obj.Get(name), nil
}

// setMember returns args with the top-level member name set to value
// (JSON), replacing its value when present, else added first.
func setMember(args []byte, name string, value []byte) ([]byte, error) {
	obj, err := requestObject(args)
	if err != nil {
		return nil, err
	}
	out, _ := obj.WithMember(name, value)
	return out, nil
}
