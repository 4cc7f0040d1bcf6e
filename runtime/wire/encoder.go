package wire

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/adcpgen/adcpgen/runtime/internal/jsonscan"
)

// Encoder appends compact JSON to a buffer. It inserts commas itself: every
// value or key is preceded by one when a value came before it at this level.
type Encoder struct {
	buf   []byte
	comma bool
	err   error
	// errAt is the JSON pointer of err's value, built by the engine as it
	// returns from the values holding it (see failedUnder).
	errAt string
	// depth is how many objects and arrays are open; spans, when set,
	// receives where the top-level object's members lie (AppendSpans).
	depth int
	spans *[]Span
}

var encoderPool = sync.Pool{New: func() any { return new(Encoder) }}

// Marshal encodes v as compact JSON.
func Marshal(v Encodable) ([]byte, error) {
	e := encoderPool.Get().(*Encoder)
	e.buf, e.comma, e.err, e.errAt = e.buf[:0], false, nil, ""
	e.Value(v)
	var out []byte
	err := e.Err()
	if err == nil {
		out = append([]byte(nil), e.buf...)
	}
	if cap(e.buf) > 1<<20 {
		e.buf = nil
	}
	encoderPool.Put(e)
	return out, err
}

// Append appends v encoded as compact JSON to dst, as Marshal encodes it:
// a caller that keeps its buffer encodes without allocating. On error dst
// is returned as it was.
func Append(dst []byte, v Encodable) ([]byte, error) {
	e := Encoder{buf: dst}
	e.Value(v)
	if err := e.Err(); err != nil {
		return dst, err
	}
	return e.buf, nil
}

// Span is where one member of a JSON object lies in the object's bytes:
// Key is the offset of its name's opening quote, Start and End bound its
// value.
type Span struct{ Key, Start, End int }

// AppendSpans is Append for a value that encodes as a JSON object, also
// appending to spans where each of its members lies in the returned bytes
// (offsets from the start of dst), as the encoder wrote them: what a
// reader would otherwise find by reading the object again
// (Lenient.EditMembersAt takes them).
func AppendSpans(dst []byte, v Encodable, spans []Span) ([]byte, []Span, error) {
	e := Encoder{buf: dst, spans: &spans}
	e.Value(v)
	if err := e.Err(); err != nil {
		return dst, spans[:0], err
	}
	return e.buf, spans, nil
}

// Bytes returns the encoded bytes so far.
func (e *Encoder) Bytes() []byte { return e.buf }

// Err is the first error: a value that cannot be encoded. When Value wrote the failing value, a *DecodeError's Pointer
// says where in it the failure is: "/products/0/rate".
func (e *Encoder) Err() error {
	if e.err == nil || e.errAt == "" {
		return e.err
	}
	de, ok := e.err.(*DecodeError)
	if !ok {
		return e.err // the engine fails only with *DecodeError
	}
	located := *de
	located.Pointer = e.errAt + de.Pointer
	return &located
}

// failedUnder notes that the encoder failed while writing the value under
// the reference token tok (a member name or an array index): the
// failure's pointer starts with tok. The engine stops at its first failure
// and calls it on the way back out, so pointers are built on the failure
// path alone.
func (e *Encoder) failedUnder(tok string) {
	e.errAt = PointerToken(tok) + e.errAt
}

// fail records err; the first one wins and Marshal returns it.
func (e *Encoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

func (e *Encoder) sep() {
	if e.comma {
		e.buf = append(e.buf, ',')
	}
}

// ObjectStart writes '{'.
func (e *Encoder) ObjectStart() { e.sep(); e.buf = append(e.buf, '{'); e.comma = false; e.depth++ }

// ObjectEnd writes '}'.
func (e *Encoder) ObjectEnd() {
	if e.spans != nil && e.depth == 1 {
		e.endSpan()
	}
	e.buf = append(e.buf, '}')
	e.comma = true
	e.depth--
}

// ArrayStart writes '['.
func (e *Encoder) ArrayStart() { e.sep(); e.buf = append(e.buf, '['); e.comma = false; e.depth++ }

// ArrayEnd writes ']'.
func (e *Encoder) ArrayEnd() { e.buf = append(e.buf, ']'); e.comma = true; e.depth-- }

// Key writes an object key and ':'.
func (e *Encoder) Key(k string) {
	if e.spans != nil {
		key := e.keyStart()
		e.buf = appendQuoted(e.buf, k)
		e.buf = append(e.buf, ':')
		e.comma = false
		e.keyEnd(key)
		return
	}
	e.sep()
	e.buf = appendQuoted(e.buf, k)
	e.buf = append(e.buf, ':')
	e.comma = false
}

// rawKey writes a key already quoted and followed by ':' (the engine
// keeps each member's `"code":`).
func (e *Encoder) rawKey(quotedColon string) {
	if e.spans != nil {
		e.rawKeySpan(quotedColon)
		return
	}
	e.sep()
	e.buf = append(e.buf, quotedColon...)
	e.comma = false
}

// rawKeySpan is rawKey recording spans (AppendSpans).
func (e *Encoder) rawKeySpan(quotedColon string) {
	key := e.keyStart()
	e.buf = append(e.buf, quotedColon...)
	e.comma = false
	e.keyEnd(key)
}

// keyStart ends the span of the member before (AppendSpans) and writes
// the separator; it returns where the key starts.
func (e *Encoder) keyStart() int {
	if e.depth == 1 {
		e.endSpan()
	}
	e.sep()
	return len(e.buf)
}

// keyEnd opens the span of a top-level member whose key started at key.
func (e *Encoder) keyEnd(key int) {
	if e.depth == 1 {
		*e.spans = append(*e.spans, Span{Key: key, Start: len(e.buf), End: -1})
	}
}

// endSpan ends the open span, if any, where the buffer ends.
func (e *Encoder) endSpan() {
	if n := len(*e.spans); n > 0 && (*e.spans)[n-1].End < 0 {
		(*e.spans)[n-1].End = len(e.buf)
	}
}

// String writes a string value. Invalid UTF-8 becomes U+FFFD.
func (e *Encoder) String(s string) { e.sep(); e.buf = appendQuoted(e.buf, s); e.comma = true }

// Bool writes true or false.
func (e *Encoder) Bool(b bool) { e.sep(); e.buf = strconv.AppendBool(e.buf, b); e.comma = true }

// Null writes null.
func (e *Encoder) Null() { e.sep(); e.buf = append(e.buf, "null"...); e.comma = true }

// Int writes an integer.
func (e *Encoder) Int(n int64) { e.sep(); e.buf = strconv.AppendInt(e.buf, n, 10); e.comma = true }

// Float writes a number the way encoding/json (and JavaScript) do. NaN and
// infinities cannot be encoded.
func (e *Encoder) Float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.fail(&DecodeError{Kind: KindRange, Message: "cannot encode " + strconv.FormatFloat(f, 'g', -1, 64) + " as JSON"})
		f = 0
	}
	e.sep()
	e.buf = appendFloat(e.buf, f)
	e.comma = true
}

// Raw writes a raw JSON value, compacted, after checking it strictly.
func (e *Encoder) Raw(raw json.RawMessage) {
	if len(raw) == 0 {
		e.Null()
		return
	}
	if err := Valid(raw); err != nil {
		e.fail(err)
		e.Null()
		return
	}
	e.sep()
	e.buf = appendCompact(e.buf, raw)
	e.comma = true
}

// Literal writes a JSON value the caller knows to be valid (a constant), as is.
func (e *Encoder) Literal(lit string) {
	e.sep()
	e.buf = append(e.buf, lit...)
	e.comma = true
}

// missingOnEncode is the error for a required pointer field left nil.
func missingOnEncode(typeName, field string) error {
	return &DecodeError{Kind: KindMissing, Message: typeName + ": required field " + strconv.Quote(field) + " is nil", Missing: []string{field}}
}

// Value writes a generated value (a nil one as null).
func (e *Encoder) Value(v Encodable) {
	if v == nil || reflect.ValueOf(v).IsNil() {
		e.Null()
		return
	}
	e.encodeTop(v)
}

func appendFloat(b []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 && (f != 0 || !math.Signbit(f)) {
		// An integer: its digits, as the shortest 'f' formatting writes
		// them, without its search (-0 keeps its sign there).
		return strconv.AppendInt(b, int64(f), 10)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Turn e-09 into e-9, as JavaScript does.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// AppendQuoted appends s as a JSON string, escaping what JSON requires.
func AppendQuoted(b []byte, s string) []byte { return appendQuoted(b, s) }

// appendQuoted writes s as a JSON string, escaping what JSON requires.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i = jsonscan.Plain(s, i, false); i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
