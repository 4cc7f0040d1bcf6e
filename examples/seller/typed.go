package main

import (
	"encoding/json"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// typed turns a response this seller writes as plain Go values (v, for
// the deeply nested answers) into the generated type, through the strict
// decoder: the answer is checked as a buyer's bytes would be before the
// server validates it against the schema and sends it.
func typed[T any, PT interface {
	*T
	wire.Decodable
}](v any) (*T, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := PT(new(T))
	if err := adcp.Decode(raw, out); err != nil {
		return nil, err
	}
	return (*T)(out), nil
}
