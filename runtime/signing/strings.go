package signing

import "github.com/adcpgen/adcpgen/runtime/wire"

// stringArray reads an optional JSON array of strings (key_ops, a
// capability's operation lists, a revocation list's ids): nil when v is
// absent, else the strings, or what is wrong with it ("is not an array",
// "holds a non-string").
func stringArray(v wire.Lenient) (list []string, problem string) {
	if !v.Present() {
		return nil, ""
	}
	if !v.IsArray() {
		return nil, "is not an array"
	}
	v.Elems(func(e wire.Lenient) bool {
		s, ok := e.AsString()
		if !ok {
			problem = "holds a non-string"
			return false
		}
		list = append(list, s)
		return true
	})
	if problem != "" {
		return nil, problem
	}
	return list, ""
}
