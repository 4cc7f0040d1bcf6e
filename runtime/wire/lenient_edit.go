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
	v.memberSpans(func(key Lenient, vs, ve int) bool {
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

// memberSpans calls fn with each member's key and the offsets of its
// value in v, in document order, duplicates included, until fn returns
// false.
func (v Lenient) memberSpans(fn func(key Lenient, start, end int) bool) {
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
		if !fn(key, j, vend) {
			return
		}
		i = skipSpace(v, vend)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
}
