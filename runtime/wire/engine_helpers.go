package wire

import (
	"encoding/json"
	"sort"
	"strconv"
)

// keySet is a set of declared member names.
type keySet map[string]struct{}

// writeMembers writes m's entries in key order, refusing declared and
// forbidden keys; it stops at a failure, whose pointer names the entry
// (see failedUnder).
func writeMembers[T any](e *Encoder, m map[string]T, declared keySet, write func(*Encoder, T)) {
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
			write(e, m[k])
		}
		if e.err != nil {
			e.failedUnder(k)
			return
		}
	}
}

// memberKeyOK refuses extra members the strict decoder would reject: a
// declared name (duplicate) or a forbidden key.
func (e *Encoder) memberKeyOK(k string, declared keySet) bool {
	if _, dup := declared[k]; dup {
		e.fail(&DecodeError{Kind: KindDuplicate, Message: "extra member " + strconv.Quote(k) + " duplicates a declared field"})
		return false
	}
	if isForbiddenKey([]byte(k)) {
		e.fail(&DecodeError{Kind: KindForbiddenKey, Message: "extra member " + strconv.Quote(k) + " is a forbidden key"})
		return false
	}
	return true
}

// required names a struct's required members and their bits in the seen
// set.
type required struct {
	mask  []uint64
	names []string
	bits  []int
}

// newRequired builds the table for members named names at bit positions
// bits.
func newRequired(words int, bits []int, names []string) *required {
	r := &required{mask: make([]uint64, words), names: names, bits: bits}
	for _, b := range bits {
		r.mask[b>>6] |= 1 << (b & 63)
	}
	return r
}

// checkRequired reports every required member missing from seen at once.
func (d *Decoder) checkRequired(seen []uint64, r *required) error {
	for i, m := range r.mask {
		if seen[i]&m != m {
			var missing []string
			for j, b := range r.bits {
				if seen[b>>6]&(1<<(b&63)) == 0 {
					missing = append(missing, r.names[j])
				}
			}
			return d.missing(missing)
		}
	}
	return nil
}

// expectConst reads a value and checks it equals the JSON literal want
// (strings compared after unescaping, numbers by value).
func (d *Decoder) expectConst(want string) error {
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

// Writers of the builtin scalars, for writeMembers.
func writeRaw(e *Encoder, v json.RawMessage) { e.Raw(v) }
func writeString(e *Encoder, v string)       { e.String(v) }
func writeInt(e *Encoder, v int64)           { e.Int(v) }
func writeFloat(e *Encoder, v float64)       { e.Float(v) }
func writeBool(e *Encoder, v bool)           { e.Bool(v) }
