package extract

import (
	"encoding/json"
	"errors"
	"reflect"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// DefaultPayloadCap is the default cap on structuredContent (compact JSON
// text) and on each content[].text item (UTF-8 bytes, checked before
// parsing): 1 MiB.
const DefaultPayloadCap = 1 << 20

// Extractor extracts AdCP data and errors from envelopes and decodes them
// for one spec version. Build it with New from the Spec of the package you
// generated (yourpkg.Spec()); it is immutable and safe for concurrent use.
//
// The spec decides two things: the recovery class of a code sent without a
// recovery field (its error-code table), and the typed details value of a
// code (its NewDetails). Codes the spec does not list, vendor codes
// included, are terminal unless an option says otherwise: AdCP's recovery
// rule and the conformance vectors want terminal, and a spec's
// default_unknown_recovery applies only with WithSpecUnknownRecovery.
type Extractor struct {
	spec       *registry.Spec
	unknown    registry.Recovery
	payloadCap int
}

// Option configures an Extractor.
type Option func(*Extractor)

// WithPayloadCap caps structuredContent and each text item at n bytes
// instead of DefaultPayloadCap; n <= 0 keeps the default.
func WithPayloadCap(n int) Option {
	return func(x *Extractor) {
		if n > 0 {
			x.payloadCap = n
		}
	}
}

// WithUnknownRecovery classifies codes the spec does not list as r (an
// invalid r means terminal, the default).
func WithUnknownRecovery(r registry.Recovery) Option {
	return func(x *Extractor) { x.unknown = r }
}

// WithSpecUnknownRecovery classifies codes the spec does not list as its
// manifest's error_code_policy.default_unknown_recovery says (terminal
// when it says nothing).
func WithSpecUnknownRecovery() Option {
	return func(x *Extractor) { x.unknown = x.spec.UnknownRecovery() }
}

// New builds an Extractor for spec. A nil spec lists no codes and no
// details types: every code sent without recovery is unknown.
func New(spec *registry.Spec, opts ...Option) *Extractor {
	if spec == nil {
		spec = registry.NewSpec(registry.SpecConfig{})
	}
	x := &Extractor{spec: spec, payloadCap: DefaultPayloadCap}
	for _, o := range opts {
		o(x)
	}
	return x
}

// Spec is the spec the extractor was built from.
func (x *Extractor) Spec() *registry.Spec { return x.spec }

// Recovery is the class the extractor gives a code sent without a usable
// recovery field: the spec's, else the unknown-code class.
func (x *Extractor) Recovery(code string) registry.Recovery {
	if r, ok := x.spec.Recovery(code); ok {
		return r
	}
	if x.unknown.Valid() {
		return x.unknown
	}
	return registry.Terminal
}

// resolveRecovery applies AdCP's recovery rule: a truthy `recovery` field
// decides (transient, correctable, terminal; any other value is terminal);
// a falsy or absent one defers to the code.
func (x *Extractor) resolveRecovery(sent wire.Lenient, code string) registry.Recovery {
	if sent.Truthy() {
		s, _ := sent.AsString()
		if r := registry.Recovery(s); r.Valid() {
			return r
		}
		return registry.Terminal
	}
	return x.Recovery(code)
}

// setError records a found error candidate: checked into r.Error, or
// counted as skipped for size.
func (x *Extractor) setError(r *Result, f *found, cand wire.Lenient, path string) {
	switch err := adcperr.Check(cand); {
	case err == nil:
		r.Error = x.buildError(cand, path)
	case errors.Is(err, adcperr.ErrOversized):
		f.skipped(path, cand.CompactLen(), adcperr.MaxErrorBytes)
	}
}

// buildError reads a checked adcp_error object. It never fails: fields of
// the wrong type are left empty and Raw keeps everything.
func (x *Extractor) buildError(ae wire.Lenient, path string) *adcperr.Error {
	code, _ := ae.Get("code").AsString()
	e := &adcperr.Error{Code: code, Raw: append(json.RawMessage(nil), ae...), Path: path}
	e.Message, _ = ae.Get("message").AsString()
	e.Field, _ = ae.Get("field").AsString()
	e.Suggestion, _ = ae.Get("suggestion").AsString()
	e.Recovery = x.resolveRecovery(ae.Get("recovery"), code)
	if f, ok := ae.Get("retry_after").Number(); ok {
		e.RetryAfter, _ = adcperr.NormalizeRetryAfter(f)
	}
	ae.Get("issues").Elems(func(it wire.Lenient) bool {
		if it.IsObject() {
			var is adcperr.ValidationIssue
			is.Pointer, _ = it.Get("pointer").AsString()
			is.Message, _ = it.Get("message").AsString()
			is.Keyword, _ = it.Get("keyword").AsString()
			is.SchemaPath, _ = it.Get("schemaPath").AsString()
			is.SchemaID, _ = it.Get("schema_id").AsString()
			e.Issues = append(e.Issues, is)
		}
		return true
	})
	if d := ae.Get("details"); d.Present() && !d.IsNull() {
		raw := append(json.RawMessage(nil), d...)
		e.Details = raw
		if typed := x.spec.NewDetails(code); !isNil(typed) {
			if err := wire.Unmarshal(raw, typed); err != nil {
				e.DetailsErr = err
			} else {
				e.Details = typed
			}
		}
	}
	return e
}

func isNil(v wire.Value) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}
