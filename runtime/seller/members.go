package seller

import (
	"bytes"
	"errors"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Member is one top-level member of a JSON object: its name and its value
// as raw JSON.
type Member struct {
	Name  string
	Value []byte
	// IfAbsent leaves a member already present as it is.
	IfAbsent bool
}

// SetMembers returns obj, a JSON object, with each member set: a member of
// that name already present has its value replaced where it stands, one
// that is absent is added at the end, in the order given. obj is not
// modified. A member whose value is nil is left as it is. It fails when
// obj is not a JSON object.
func SetMembers(obj []byte, set ...Member) ([]byte, error) {
	v := wire.Lenient(bytes.TrimSpace(obj))
	if !v.IsObject() || v[len(v)-1] != '}' {
		return nil, errors.New("seller: set members: not a JSON object")
	}
	found := make([]bool, len(set))
	// Replacements, in document order: [start, end) of the old value.
	type span struct {
		start, end int
		val        []byte
	}
	var spans []span
	v.Members(func(key, val wire.Lenient) bool {
		for i, m := range set {
			if m.Value == nil || !key.StringIs(m.Name) {
				continue
			}
			found[i] = true
			if m.IfAbsent {
				break
			}
			start := cap(v) - cap(key) + len(key)
			for start < len(v) && v[start] != ':' {
				start++
			}
			start++
			for start < len(v) && isSpace(v[start]) {
				start++
			}
			if !bytes.Equal(val, m.Value) {
				spans = append(spans, span{start, start + len(val), m.Value})
			}
			break
		}
		return true
	})
	grow := 0
	for i, m := range set {
		if !found[i] && m.Value != nil {
			grow += len(m.Name) + len(m.Value) + 4
		}
	}
	if len(spans) == 0 && grow == 0 {
		return v, nil
	}
	out := make([]byte, 0, len(v)+grow+64)
	at := 0
	for _, sp := range spans {
		out = append(out, v[at:sp.start]...)
		out = append(out, sp.val...)
		at = sp.end
	}
	body := v[at : len(v)-1] // up to the closing brace
	out = append(out, body...)
	empty := len(bytes.TrimSpace(v[1:len(v)-1])) == 0
	for i, m := range set {
		if found[i] || m.Value == nil {
			continue
		}
		if !empty {
			out = append(out, ',')
		}
		empty = false
		out = wire.AppendQuoted(out, m.Name)
		out = append(out, ':')
		out = append(out, m.Value...)
	}
	return append(out, '}'), nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
