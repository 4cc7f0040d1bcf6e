package wire

import (
	"encoding/json"
	"strconv"
	"strings"
)

// isSeen marks bit i in seen and reports whether it was already set: a
// declared member seen twice is a duplicate key.
func isSeen(seen []uint64, i int) bool {
	w, m := i>>6, uint64(1)<<(i&63)
	if seen[w]&m != 0 {
		return true
	}
	seen[w] |= m
	return false
}

// missing reports absent required fields; names lists every one of them.
// It is called after NextKey returned false, so the pointer names the object.
func (d *Decoder) missing(names []string) error {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	noun := "field "
	if len(names) > 1 {
		noun = "fields "
	}
	e := d.errAt(KindMissing, "missing required "+noun+strings.Join(quoted, ", "))
	e.Missing = append([]string(nil), names...)
	return e
}

// unknownField rejects a key the schema does not allow.
func (d *Decoder) unknownField(key []byte) error {
	why := "unknown field "
	if d.exact {
		why = "unknown field (exact mode) "
	}
	return d.errAt(KindUnknownField, why+strconv.Quote(string(key)))
}

// unknownEnum rejects, in exact mode, a value an enum does not list.
func (d *Decoder) unknownEnum(value string, known []string) error {
	return d.errAt(KindUnknownEnum, "unknown enum value "+strconv.Quote(value)+" (want one of "+strings.Join(quoteAll(known), ", ")+")")
}

// keepUnknown stores the value of an unknown key in *m, or rejects it in
// exact mode. Duplicates among unknown keys are rejected.
func (d *Decoder) keepUnknown(key []byte, m *map[string]json.RawMessage) error {
	if d.exact {
		return d.unknownField(key)
	}
	if *m == nil {
		*m = make(map[string]json.RawMessage, 2)
	}
	if _, dup := (*m)[string(key)]; dup {
		return d.Duplicate(key)
	}
	k := d.copyString(key)
	raw, err := d.Raw()
	if err != nil {
		return err
	}
	(*m)[k] = raw
	return nil
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}
