// Package jsonread reads the JSON documents of the signing packages (a
// JWK, a JWKS, a capability, a revocation list) the one way: with
// runtime/wire's strict reader, so a duplicate key, a forbidden key or a
// syntax error anywhere refuses the document and every reader sees the
// same value.
package jsonread

import (
	"encoding/base64"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Strict reads one document with the strict reader.
func Strict(data []byte) (wire.Lenient, error) {
	if err := wire.Valid(data); err != nil {
		return nil, err
	}
	return wire.ParseLenient(data)
}

// Base64URL decodes unpadded base64url (a JWK's members, a JWS's parts).
func Base64URL(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(s)
}

// StringArray reads an optional JSON array of strings (key_ops, a
// capability's operation lists, a revocation list's ids): nil when v is
// absent, else the strings, or what is wrong with it ("is not an array",
// "holds a non-string").
func StringArray(v wire.Lenient) (list []string, problem string) {
	if !v.Present() {
		return nil, ""
	}
	if !v.IsArray() {
		return nil, "is not an array"
	}
	v.Elems(func(e wire.Lenient) bool {
		s, ok := e.AsString()
		if !ok {
			problem = "holds a non-string"
			return false
		}
		list = append(list, s)
		return true
	})
	if problem != "" {
		return nil, problem
	}
	return list, ""
}
