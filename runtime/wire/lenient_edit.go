package wire

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
