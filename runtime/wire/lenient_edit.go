package wire

import "errors"

// WithMember returns a copy of the object v with its member name set to
// value (a JSON text): the value of the last member of that name (the one
// JSON.parse keeps) is replaced; without one, the member is added first.
// Everything else keeps its bytes. v must be an object a reader accepted.
func (v Lenient) WithMember(name string, value []byte) ([]byte, bool) {
	if !v.IsObject() {
		return nil, false
	}
	start, end := -1, -1
	v.memberSpans(func(key Lenient, _, vs, ve int) bool {
		if key.StringIs(name) {
			start, end = vs, ve
		}
		return true
	})
	out := make([]byte, 0, len(v)+len(name)+len(value)+4)
	if start >= 0 {
		out = append(out, v[:start]...)
		out = append(out, value...)
		return append(out, v[end:]...), true
	}
	out = append(out, '{')
	out = AppendQuoted(out, name)
	out = append(out, ':')
	out = append(out, value...)
	if rest := skipSpace(v, 1); rest < len(v) && v[rest] != '}' {
		out = append(out, ',')
	}
	return append(out, v[1:]...), true
}

// WithMembers is WithMember for each names[i] with values[i] in turn, in
// one pass over v: members present are replaced where they stand, the
// others added first (the last added foremost). A name given twice takes
// its last value. v itself is returned when names is empty.
func (v Lenient) WithMembers(names []string, values [][]byte) ([]byte, bool) {
	if !v.IsObject() || len(names) != len(values) {
		return nil, false
	}
	out, err := v.EditMembers(names, func([]Lenient) ([][]byte, error) { return values, nil })
	return out, err == nil
}

// EditMembers reads the members named names (the last of a repeated
// name, nil when absent), asks edit for their new values (nil to leave
// one as it is), and sets those as WithMembers does: one pass over v to
// read, one copy to write, whatever v's size. An error from edit is
// returned as it is; v not being an object is an error too. v itself is
// returned when nothing changes.
func (v Lenient) EditMembers(names []string, edit func(current []Lenient) ([][]byte, error)) ([]byte, error) {
	if !v.IsObject() {
		return nil, errNotObject
	}
	type span struct{ start, end int } // a value's, -1 when absent
	var (
		curBuf  [8]Lenient
		spanBuf [8]span
	)
	cur, spans := curBuf[:0], spanBuf[:0]
	for range names {
		cur, spans = append(cur, nil), append(spans, span{-1, -1})
	}
	v.memberSpans(func(key Lenient, _, vs, ve int) bool {
		for i, name := range names {
			if key.StringIs(name) {
				cur[i], spans[i] = v[vs:ve:ve], span{vs, ve}
			}
		}
		return true
	})
	edited, err := edit(cur)
	if err != nil {
		return nil, err
	}
	if len(edited) != len(names) {
		return nil, errors.New("wire: EditMembers: edit returned a value count other than the names'")
	}
	var valueBuf [8][]byte
	values := append(valueBuf[:0], edited...)
	// A name given twice: the first keeps the place, the last the value.
	var skipBuf [8]bool
	skip := skipBuf[:0]
	size, changed := len(v), false
	for i, name := range names {
		skip = append(skip, values[i] == nil)
		if values[i] == nil {
			continue
		}
		changed = true
		size += len(name) + len(values[i]) + 8
		for j := range i {
			if names[j] == name && !skip[j] {
				values[j], skip[i] = values[i], true
				break
			}
		}
	}
	if !changed {
		return v, nil
	}
	out := make([]byte, 0, size)
	out = append(out, '{')
	nonEmpty := false
	if rest := skipSpace(v, 1); rest < len(v) && v[rest] != '}' {
		nonEmpty = true
	}
	first := true
	for i := len(names) - 1; i >= 0; i-- {
		if skip[i] || spans[i].start >= 0 {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = AppendQuoted(out, names[i])
		out = append(out, ':')
		out = append(out, values[i]...)
	}
	if !first && nonEmpty {
		out = append(out, ',')
	}
	// The rest of v, replaced values in document order.
	at := 1
	for {
		next := -1
		for i, sp := range spans {
			if !skip[i] && sp.start >= at && (next < 0 || sp.start < spans[next].start) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		out = append(out, v[at:spans[next].start]...)
		out = append(out, values[next]...)
		at = spans[next].end
	}
	return append(out, v[at:]...), nil
}

// errNotObject is EditMembers' error for a value that is no object.
var errNotObject = errors.New("wire: not a JSON object")

// WithoutMember returns a copy of the object v without its members named
// name (a strict object has one at most), each with the comma that
// separated it from the next; everything else keeps its bytes. v itself is
// returned when it has no such member; ok is false when v is not an
// object. v must be an object a reader accepted.
func (v Lenient) WithoutMember(name string) ([]byte, bool) {
	if !v.IsObject() {
		return nil, false
	}
	type span struct {
		start, end int // the key's first byte, the value's end
		drop       bool
	}
	var spans []span
	dropped := false
	v.memberSpans(func(key Lenient, ks, _, ve int) bool {
		drop := key.StringIs(name)
		dropped = dropped || drop
		spans = append(spans, span{ks, ve, drop})
		return true
	})
	if !dropped {
		return v, true
	}
	out := make([]byte, 0, len(v))
	out = append(out, v[:spans[0].start]...)
	kept := false
	for i, sp := range spans {
		if sp.drop {
			continue
		}
		if kept { // the separator after the member before, kept or not
			out = append(out, v[spans[i-1].end:sp.start]...)
		}
		out = append(out, v[sp.start:sp.end]...)
		kept = true
	}
	return append(out, v[spans[len(spans)-1].end:]...), true
}

// memberSpans calls fn with each member's key and the offsets of its key
// and of its value in v, in document order, duplicates included, until fn
// returns false.
func (v Lenient) memberSpans(fn func(key Lenient, keyStart, start, end int) bool) {
	if !v.IsObject() {
		return
	}
	i := skipSpace(v, 1)
	for i < len(v) && v[i] == '"' {
		kend := skipString(v, i)
		key := v[i:kend]
		j := skipSpace(v, kend)
		if j >= len(v) || v[j] != ':' {
			return
		}
		j = skipSpace(v, j+1)
		vend := skipValue(v, j)
		if vend <= j {
			return
		}
		if !fn(key, i, j, vend) {
			return
		}
		i = skipSpace(v, vend)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
}
