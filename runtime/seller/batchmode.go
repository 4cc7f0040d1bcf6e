package seller

import (
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// callsOf is what a request body invokes: the one call of a JSON-RPC
// request (signing.CallOf), or each element's of a batch.
func callsOf(body []byte) []signing.Invocation {
	v, err := wire.ParseLenient(body)
	if err != nil || !v.IsArray() {
		return []signing.Invocation{signing.CallOf(body)}
	}
	var calls []signing.Invocation
	v.Elems(func(e wire.Lenient) bool {
		calls = append(calls, signing.CallOf(e.Raw()))
		return true
	})
	return calls
}

// strictestMode is the mode that judges calls together as strictly as the
// strictest of them alone (signing.Verifier.Decide): required_for refuses
// what no other mode does; warn_for forgives a failed signature that no
// other mode forgives; supported_for and a call on no list judge alike.
func strictestMode(p *signing.OperationPolicy, calls []signing.Invocation) signing.Mode {
	rank := func(m signing.Mode) int {
		switch m {
		case signing.ModeWarn:
			return 0
		case signing.ModeRequired:
			return 2
		}
		return 1
	}
	out := signing.ModeWarn
	if len(calls) == 0 {
		out = signing.ModeNone
	}
	for _, c := range calls {
		if m := p.Mode(c); rank(m) > rank(out) || (rank(m) == rank(out) && m > out) {
			out = m
		}
	}
	return out
}
