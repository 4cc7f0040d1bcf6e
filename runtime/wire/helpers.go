package wire

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Readers and writers with the shapes generated code composes:
// func(*T, *Decoder) error and func(*T, *Encoder). Method expressions of
// generated types ((*Product).DecodeWire) have the same shapes.

func ReadString(p *string, d *Decoder) (err error)       { *p, err = d.String(); return err }
func ReadInt(p *int64, d *Decoder) (err error)           { *p, err = d.Int(); return err }
func ReadFloat(p *float64, d *Decoder) (err error)       { *p, err = d.Float(); return err }
func ReadBool(p *bool, d *Decoder) (err error)           { *p, err = d.Bool(); return err }
func ReadRaw(p *json.RawMessage, d *Decoder) (err error) { *p, err = d.Raw(); return err }

func ReadDateTime(p *DateTime, d *Decoder) error {
	s, err := d.String()
	*p = DateTime(s)
	return err
}

func ReadDate(p *Date, d *Decoder) error {
	s, err := d.String()
	*p = Date(s)
	return err
}

func WriteString(p *string, e *Encoder)       { e.String(*p) }
func WriteInt(p *int64, e *Encoder)           { e.Int(*p) }
func WriteFloat(p *float64, e *Encoder)       { e.Float(*p) }
func WriteBool(p *bool, e *Encoder)           { e.Bool(*p) }
func WriteRaw(p *json.RawMessage, e *Encoder) { e.Raw(*p) }
func WriteDateTime(p *DateTime, e *Encoder)   { e.String(string(*p)) }
func WriteDate(p *Date, e *Encoder)           { e.String(string(*p)) }

// ReadPtr reads a value into a new *T.
//
//go:noinline
func ReadPtr[T any](d *Decoder, p **T, read func(*T, *Decoder) error) error {
	v := newValue(d, p)
	if err := read(v, d); err != nil {
		return err
	}
	*p = v
	return nil
}

// ReadSlice reads an array. A present empty array gives a non-nil empty
// slice, so "absent" (nil) and "empty" stay distinct.
//
//go:noinline
func ReadSlice[T any](d *Decoder, p *[]T, read func(*T, *Decoder) error) error {
	if err := d.ArrayStart(); err != nil {
		return err
	}
	var s []T
	if d.skipWS() == ']' {
		s = []T{} // no allocation for an empty array
	} else {
		s = make([]T, 0, 4)
	}
	for {
		more, err := d.NextElem()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		var zero T
		s = append(s, zero)
		if err := read(&s[len(s)-1], d); err != nil {
			return err
		}
	}
	*p = s
	return nil
}

// ReadMap reads an object of uniformly typed members.
//
//go:noinline
func ReadMap[T any](d *Decoder, p *map[string]T, read func(*T, *Decoder) error) error {
	if err := d.ObjectStart(); err != nil {
		return err
	}
	m := make(map[string]T)
	for {
		key, ok, err := d.NextKey()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if err := readEntry(d, key, m, read); err != nil {
			return err
		}
	}
	*p = m
	return nil
}

// ReadMapEntry reads one member into *p under key (typed additional
// properties of a struct).
//
//go:noinline
func ReadMapEntry[T any](d *Decoder, key []byte, p *map[string]T, read func(*T, *Decoder) error) error {
	if *p == nil {
		*p = make(map[string]T)
	}
	return readEntry(d, key, *p, read)
}

func readEntry[T any](d *Decoder, key []byte, m map[string]T, read func(*T, *Decoder) error) error {
	if _, dup := m[string(key)]; dup {
		return d.Duplicate(key)
	}
	k := d.copyString(key)
	var v T
	if err := read(&v, d); err != nil {
		return err
	}
	m[k] = v
	return nil
}

// ReadNullable reads null or a value.
//
//go:noinline
func ReadNullable[T any](d *Decoder, p *Nullable[T], read func(*T, *Decoder) error) error {
	null, err := d.Null()
	if err != nil {
		return err
	}
	if null {
		*p = Null[T]()
		return nil
	}
	var v T
	if err := read(&v, d); err != nil {
		return err
	}
	*p = Some(v)
	return nil
}

// WriteSlice writes an array; a nil slice is written as [].
//
//go:noinline
func WriteSlice[T any](e *Encoder, s []T, write func(*T, *Encoder)) {
	e.ArrayStart()
	for i := range s {
		write(&s[i], e)
	}
	e.ArrayEnd()
}

// WriteMap writes an object with members in key order.
//
//go:noinline
func WriteMap[T any](e *Encoder, m map[string]T, write func(*T, *Encoder)) {
	e.ObjectStart()
	writeMembers(e, m, nil, write, false)
	e.ObjectEnd()
}

// WriteMembers writes typed extra members of a struct in key order; keys the
// struct declares are refused (they would be written twice).
//
//go:noinline
func WriteMembers[T any](e *Encoder, m map[string]T, declared KeySet, write func(*T, *Encoder)) {
	writeMembers(e, m, declared, write, false)
}

// writeMembers writes m's entries in key order. located: the engine is
// writing, so it stops at a failure, whose pointer names the entry (see
// failedUnder).
func writeMembers[T any](e *Encoder, m map[string]T, declared KeySet, write func(*T, *Encoder), located bool) {
	if len(m) == 0 {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if e.memberKeyOK(k, declared) {
			e.Key(k)
			v := m[k]
			write(&v, e)
		}
		if located && e.err != nil {
			e.failedUnder(k)
			return
		}
	}
}

// WriteNullable writes null or the value. An absent Nullable is written as
// null too; callers omit absent optional fields before calling.
//
//go:noinline
func WriteNullable[T any](e *Encoder, n *Nullable[T], write func(*T, *Encoder)) {
	if v, ok := n.Get(); ok {
		write(&v, e)
		return
	}
	e.Null()
}

// KeySet is a set of declared member names.
type KeySet map[string]struct{}

// Keys builds a KeySet.
func Keys(names ...string) KeySet {
	s := make(KeySet, len(names))
	for _, n := range names {
		s[n] = struct{}{}
	}
	return s
}

// memberKeyOK refuses extra members the strict decoder would reject: a
// declared name (duplicate) or a forbidden key.
func (e *Encoder) memberKeyOK(k string, declared KeySet) bool {
	if _, dup := declared[k]; dup {
		e.Fail(&DecodeError{Kind: KindDuplicate, Message: "extra member " + strconv.Quote(k) + " duplicates a declared field"})
		return false
	}
	if isForbiddenKey([]byte(k)) {
		e.Fail(&DecodeError{Kind: KindForbiddenKey, Message: "extra member " + strconv.Quote(k) + " is a forbidden key"})
		return false
	}
	return true
}

// ExtraMembers writes raw extra members of a struct (see WriteMembers).
func (e *Encoder) ExtraMembers(m map[string]json.RawMessage, declared KeySet) {
	writeMembers(e, m, declared, WriteRaw, false)
}

// Required names a struct's required members and their bits in the seen set.
type Required struct {
	Mask  []uint64
	Names []string
	Bits  []int
}

// NewRequired builds the table for members named names at bit positions bits.
func NewRequired(words int, bits []int, names []string) *Required {
	r := &Required{Mask: make([]uint64, words), Names: names, Bits: bits}
	for _, b := range bits {
		r.Mask[b>>6] |= 1 << (b & 63)
	}
	return r
}

// CheckRequired reports every required member missing from seen at once.
func (d *Decoder) CheckRequired(seen []uint64, r *Required) error {
	for i, m := range r.Mask {
		if seen[i]&m != m {
			var missing []string
			for j, b := range r.Bits {
				if seen[b>>6]&(1<<(b&63)) == 0 {
					missing = append(missing, r.Names[j])
				}
			}
			return d.Missing(missing)
		}
	}
	return nil
}

// ExpectConst reads a value and checks it equals the JSON literal want
// (strings compared after unescaping, numbers by value).
func (d *Decoder) ExpectConst(want string) error {
	d.skipWS()
	start := d.pos
	if err := d.walkValue(); err != nil {
		return err
	}
	got := d.buf[start:d.pos]
	if !jsonEqual(got, want) {
		d.pos = start
		return d.errAt(KindConst, "want the constant "+want+", got "+abbreviate(got))
	}
	return nil
}

// jsonEqual compares a raw scalar with a scalar literal.
func jsonEqual(raw []byte, lit string) bool {
	if string(raw) == lit {
		return true
	}
	if len(raw) == 0 || len(lit) == 0 {
		return false
	}
	switch {
	case raw[0] == '"' && lit[0] == '"':
		var scratch []byte
		a := Decoder{buf: raw}
		sa, err1 := a.readString(&scratch)
		if err1 != nil {
			return false
		}
		sacopy := string(sa)
		b := Decoder{buf: []byte(lit)}
		sb, err2 := b.readString(&scratch)
		return err2 == nil && sacopy == string(sb)
	case isNumberStart(raw[0]) && isNumberStart(lit[0]):
		x, err1 := strconv.ParseFloat(string(raw), 64)
		y, err2 := strconv.ParseFloat(lit, 64)
		return err1 == nil && err2 == nil && x == y
	}
	return false
}

func isNumberStart(c byte) bool { return c == '-' || c >= '0' && c <= '9' }

func abbreviate(raw []byte) string {
	s := string(raw)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// WantedKinds rejects a value none of a union's arms accepts by type.
func (d *Decoder) WantedKinds(union string, want []string) error {
	c := d.skipWS()
	return d.errAt(KindUnion, union+": want "+strings.Join(want, " or ")+", got "+describeByte(c))
}
