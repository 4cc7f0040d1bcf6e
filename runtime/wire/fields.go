package wire

import "encoding/json"

// One-call helpers for generated struct decoders: each rejects a second
// occurrence of the member (bit in seen), then reads its value.
//
// A generated package calls these helpers tens of thousands of times, so
// they, and the generic readers and writers of helpers.go, are never
// inlined: copying their bodies into every call site made the compiler
// do twice the work for a large spec version (see make gen-cost), and a
// call costs the decoder nothing measurable.

// Field reads a member held by value.
//
//go:noinline
func Field[T any](d *Decoder, seen []uint64, bit int, key []byte, p *T, read func(*T, *Decoder) error) error {
	if Seen(seen, bit) {
		return d.Duplicate(key)
	}
	return read(p, d)
}

// FieldPtr reads an optional member held as *T.
//
//go:noinline
func FieldPtr[T any](d *Decoder, seen []uint64, bit int, key []byte, p **T, read func(*T, *Decoder) error) error {
	if Seen(seen, bit) {
		return d.Duplicate(key)
	}
	return ReadPtr(d, p, read)
}

// FieldSlice reads an array member.
//
//go:noinline
func FieldSlice[T any](d *Decoder, seen []uint64, bit int, key []byte, p *[]T, read func(*T, *Decoder) error) error {
	if Seen(seen, bit) {
		return d.Duplicate(key)
	}
	return ReadSlice(d, p, read)
}

// FieldMap reads an object member of uniformly typed values.
//
//go:noinline
func FieldMap[T any](d *Decoder, seen []uint64, bit int, key []byte, p *map[string]T, read func(*T, *Decoder) error) error {
	if Seen(seen, bit) {
		return d.Duplicate(key)
	}
	return ReadMap(d, p, read)
}

// FieldNullable reads a member that may be null.
//
//go:noinline
func FieldNullable[T any](d *Decoder, seen []uint64, bit int, key []byte, p *Nullable[T], read func(*T, *Decoder) error) error {
	if Seen(seen, bit) {
		return d.Duplicate(key)
	}
	return ReadNullable(d, p, read)
}

// FieldConst checks a member whose value the schema fixes (no Go field).
func (d *Decoder) FieldConst(seen []uint64, bit int, key []byte, lit string) error {
	if Seen(seen, bit) {
		return d.Duplicate(key)
	}
	return d.ExpectConst(lit)
}

// FieldConstPtr checks an optional member with a fixed value and stores it.
//
//go:noinline
func FieldConstPtr[T any](d *Decoder, seen []uint64, bit int, key []byte, p **T, lit string, value T) error {
	if err := d.FieldConst(seen, bit, key, lit); err != nil {
		return err
	}
	*p = &value
	return nil
}

// Helpers for generated struct encoders. key is the quoted key and colon
// (`"code":`); the optional forms write nothing when the member is absent.

// Put writes a member.
//
//go:noinline
func Put[T any](e *Encoder, key string, p *T, write func(*T, *Encoder)) {
	e.RawKey(key)
	write(p, e)
}

// PutPtr writes an optional member held as *T.
//
//go:noinline
func PutPtr[T any](e *Encoder, key string, p *T, write func(*T, *Encoder)) {
	if p != nil {
		e.RawKey(key)
		write(p, e)
	}
}

// PutRequired writes a required member held as *T (to break a recursive
// type); nil is an encoding error.
//
//go:noinline
func PutRequired[T any](e *Encoder, key string, p *T, write func(*T, *Encoder), typeName, field string) {
	e.RawKey(key)
	if p == nil {
		e.Fail(MissingOnEncode(typeName, field))
		e.Null()
		return
	}
	write(p, e)
}

// PutSlice writes an array member; a nil slice is absent.
//
//go:noinline
func PutSlice[T any](e *Encoder, key string, s []T, write func(*T, *Encoder)) {
	if s != nil {
		e.RawKey(key)
		WriteSlice(e, s, write)
	}
}

// PutMap writes an object member; a nil map is absent.
//
//go:noinline
func PutMap[T any](e *Encoder, key string, m map[string]T, write func(*T, *Encoder)) {
	if m != nil {
		e.RawKey(key)
		WriteMap(e, m, write)
	}
}

// PutNullable writes a member that may be null; an absent one is omitted.
//
//go:noinline
func PutNullable[T any](e *Encoder, key string, n *Nullable[T], write func(*T, *Encoder)) {
	if !n.IsAbsent() {
		e.RawKey(key)
		WriteNullable(e, n, write)
	}
}

// PutRaw writes a raw JSON member; nil is absent.
func PutRaw(e *Encoder, key string, raw json.RawMessage) {
	if raw != nil {
		e.RawKey(key)
		e.Raw(raw)
	}
}

// Fixed writes a member whose value the schema fixes.
func (e *Encoder) Fixed(key, lit string) {
	e.RawKey(key)
	e.Literal(lit)
}

// Optional is a value that can be absent (generated unions).
type Optional interface {
	IsZero() bool
	EncodeWire(*Encoder)
}

// PutOptional writes a member unless it is absent.
func (e *Encoder) PutOptional(key string, v Optional) {
	if !v.IsZero() {
		e.RawKey(key)
		v.EncodeWire(e)
	}
}
