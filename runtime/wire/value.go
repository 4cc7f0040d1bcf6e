package wire

import "github.com/adcpgen/adcpgen/runtime/wireimpl"

// Value is implemented by (a pointer to) every generated type: it
// describes itself to this package's reader and writer, which Unmarshal
// and Marshal it.
type Value interface {
	// WireDesc returns the type's descriptor (see runtime/wireimpl).
	WireDesc() *wireimpl.Desc
}

// Decodable is what Unmarshal decodes into: a pointer to a generated type.
type Decodable = Value

// Encodable is what Marshal encodes: a pointer to a generated type.
type Encodable = Value
