package wire

import (
	"strconv"
	"strings"
)

// Kind classifies a decoding failure.
type Kind uint8

const (
	KindSyntax       Kind = iota + 1 // not JSON
	KindType                         // wrong JSON type
	KindMissing                      // required fields absent
	KindDuplicate                    // the same key twice in one object
	KindForbiddenKey                 // __proto__, constructor or prototype
	KindUnknownField                 // a key the schema forbids (or any unknown key in exact mode)
	KindUnknownEnum                  // an enum value the schema does not list (exact mode)
	KindConst                        // a value that differs from the schema's const
	KindUnion                        // no union arm, or several, match
	KindDepth                        // nesting deeper than the limit
	KindRange                        // a number that does not fit its Go type (encoding: that JSON cannot hold)
	KindUTF8                         // invalid UTF-8 or a lone surrogate escape
)

var kindNames = [...]string{
	KindSyntax: "syntax", KindType: "type", KindMissing: "missing", KindDuplicate: "duplicate",
	KindForbiddenKey: "forbidden_key", KindUnknownField: "unknown_field", KindUnknownEnum: "unknown_enum",
	KindConst: "const", KindUnion: "union", KindDepth: "depth", KindRange: "range", KindUTF8: "utf8",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// DecodeError is a decoding (or strict encoding) failure at a place in the input.
type DecodeError struct {
	Kind    Kind
	Pointer string // RFC 6901 pointer to the offending value ("" is the root)
	Offset  int    // byte offset in the input
	Message string
	// Missing lists the absent required fields (KindMissing).
	Missing []string
	// Arms says why each union arm was not chosen (KindUnion).
	Arms []ArmError
}

// ArmError is one union arm's reason for not matching.
type ArmError struct {
	Arm    string
	Reason string
}

// maxShownPointer bounds the pointer Error prints.
const maxShownPointer = 120

func (e *DecodeError) Error() string {
	var b strings.Builder
	switch {
	case e.Pointer == "":
		b.WriteString("(root)")
	case len(e.Pointer) > maxShownPointer:
		// Deep nesting makes pointers long; the field keeps all of it.
		cut := strings.LastIndexByte(e.Pointer[:maxShownPointer], '/')
		b.WriteString(e.Pointer[:cut])
		b.WriteString("/…(" + strconv.Itoa(strings.Count(e.Pointer, "/")) + " levels)")
	default:
		b.WriteString(e.Pointer)
	}
	b.WriteString(": ")
	b.WriteString(e.Message)
	for _, a := range e.Arms {
		b.WriteString("; ")
		b.WriteString(a.Arm)
		b.WriteString(": ")
		b.WriteString(a.Reason)
	}
	return b.String()
}

// PointerToken is "/" and tok escaped as an RFC 6901 reference token ("~"
// is "~0", "/" is "~1"): one step of a JSON pointer.
func PointerToken(tok string) string { return string(appendPointerToken(nil, tok)) }

// appendPointerToken appends "/" and tok escaped per RFC 6901.
func appendPointerToken(b []byte, tok string) []byte {
	b = append(b, '/')
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; c {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, c)
		}
	}
	return b
}
