package wire

import (
	"errors"
	"unicode/utf8"
)

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
	out, _, err := v.editMembers(nil, false, names, edit)
	return out, err
}

// EditMembersAt is EditMembers for an object whose members lie where spans
// says (AppendSpans wrote them so): it reads no value, only the names, and
// returns where the result's members lie. spans must be v's, every member
// in order.
func (v Lenient) EditMembersAt(spans []Span, names []string, edit func(current []Lenient) ([][]byte, error)) ([]byte, []Span, error) {
	return v.editMembers(spans, true, names, edit)
}

func (v Lenient) editMembers(spans []Span, known bool, names []string, edit func(current []Lenient) ([][]byte, error)) ([]byte, []Span, error) {
	if !v.IsObject() {
		return nil, nil, errNotObject
	}
	if !known {
		v.memberSpans(func(_ Lenient, ks, vs, ve int) bool {
			spans = append(spans, Span{Key: ks, Start: vs, End: ve})
			return true
		})
	}
	var (
		curBuf [8]Lenient
		atBuf  [8]int
	)
	cur, at := curBuf[:0], atBuf[:0] // at: the span of the last member of each name, -1 when absent
	for range names {
		cur, at = append(cur, nil), append(at, -1)
	}
	for j, sp := range spans {
		key := v[sp.Key:skipString(v, sp.Key)]
		for i, name := range names {
			if key.StringIs(name) {
				cur[i], at[i] = v[sp.Start:sp.End:sp.End], j
			}
		}
	}
	edited, err := edit(cur)
	if err != nil {
		return nil, nil, err
	}
	if len(edited) != len(names) {
		return nil, nil, errors.New("wire: EditMembers: edit returned a value count other than the names'")
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
			// The same member: the name written (AppendQuoted) reads back
			// as the name, which an invalid UTF-8 one does not.
			if names[j] == name && !skip[j] && utf8.ValidString(name) {
				values[j], skip[i] = values[i], true
				break
			}
		}
	}
	if !changed {
		return v, spans, nil
	}
	// replaced[j] is the name whose value replaces span j's, -1 for none.
	var replBuf [32]int
	replaced := replBuf[:0]
	for range spans {
		replaced = append(replaced, -1)
	}
	for i, j := range at {
		if !skip[i] && j >= 0 {
			replaced[j] = i
		}
	}
	out := make([]byte, 0, size)
	var outSpans []Span
	if known {
		outSpans = make([]Span, 0, len(spans)+len(names))
	}
	out = append(out, '{')
	first := true
	for i := len(names) - 1; i >= 0; i-- {
		if skip[i] || at[i] >= 0 {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		key := len(out)
		out = AppendQuoted(out, names[i])
		out = append(out, ':')
		sp := Span{Key: key, Start: len(out)}
		out = append(out, values[i]...)
		sp.End = len(out)
		if known {
			outSpans = append(outSpans, sp)
		}
	}
	if rest := skipSpace(v, 1); !first && rest < len(v) && v[rest] != '}' {
		out = append(out, ',')
	}
	// The rest of v, replaced values where they stand.
	delta := len(out) - 1 // where v[1] lands, less 1
	from := 1
	for j, sp := range spans {
		i := replaced[j]
		if known {
			nsp := Span{Key: sp.Key + delta, Start: sp.Start + delta, End: sp.End + delta}
			if i >= 0 {
				nsp.End = nsp.Start + len(values[i])
			}
			outSpans = append(outSpans, nsp)
		}
		if i < 0 {
			continue
		}
		out = append(out, v[from:sp.Start]...)
		out = append(out, values[i]...)
		from = sp.End
		delta += len(values[i]) - (sp.End - sp.Start)
	}
	return append(out, v[from:]...), outSpans, nil
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
