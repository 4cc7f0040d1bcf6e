package idempotency

import "github.com/adcpgen/adcpgen/runtime/wire"

// withoutMember returns obj, a JSON object, without its top-level member
// name; every other byte is kept as it is. obj is returned unchanged when
// it has no such member.
func withoutMember(obj []byte, name string) []byte {
	v := wire.Lenient(obj)
	start, end := -1, -1
	prevEnd := -1 // end of the member before the one removed
	v.Members(func(key, val wire.Lenient) bool {
		// key shares v's array to its end (val is capped at its own end),
		// so its offset is known; the value follows the colon.
		keyAt := cap(v) - cap(key)
		at := keyAt + len(key)
		for at < len(v) && (isSpace(v[at]) || v[at] == ':') {
			at++
		}
		valEnd := at + len(val)
		if key.StringIs(name) {
			start, end = keyAt, valEnd
			return false
		}
		prevEnd = valEnd
		return true
	})
	if start < 0 {
		return obj
	}
	out := make([]byte, 0, len(obj))
	if prevEnd >= 0 {
		// Drop from the end of the previous member: its comma goes too.
		out = append(out, obj[:prevEnd]...)
		out = append(out, obj[end:]...)
		return out
	}
	// The first member: drop it and the comma after it, if any.
	rest := end
	for rest < len(obj) && isSpace(obj[rest]) {
		rest++
	}
	if rest < len(obj) && obj[rest] == ',' {
		rest++
	}
	out = append(out, obj[:start]...)
	out = append(out, obj[rest:]...)
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
