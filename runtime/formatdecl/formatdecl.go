// Package formatdecl checks the two format declarations a product may
// carry (AdCP 3.1 and later): format_ids, the named formats of creative
// agents (v1), and format_options, canonical declarations (v2), each
// linked to the named formats it is by v1_format_ref. A product that
// dual-emits MUST describe the same creative requirement in both; where
// a format option's v1_format_ref names a format the product's format_ids
// do not list, the two disagree, and the producer says so with a
// non-fatal FORMAT_DECLARATION_DIVERGENT advisory in the response's
// errors[] (enums/error-code.json), beside the products it still
// returns: buyers that read format_ids would otherwise silently lose
// inventory the canonical declaration offers.
//
// A product that carries only one of the two shapes, or format_ids the
// options do not reference (legacy formats with no canonical pairing),
// does not diverge: only a reference that resolves nowhere does.
package formatdecl

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// DivergentCode is the advisory's error code.
const DivergentCode = "FORMAT_DECLARATION_DIVERGENT"

// Advise returns a get_products response (its JSON object) with a
// FORMAT_DECLARATION_DIVERGENT entry, source "producer", appended to
// errors[] for each product whose declarations diverge; body unchanged
// when none does. An entry already present for the same product (same
// code and field, as a hop before may have added) is not repeated.
func Advise(body json.RawMessage) (json.RawMessage, error) {
	v, err := wire.ParseLenient(body)
	if err != nil {
		return nil, fmt.Errorf("formatdecl: %w", err)
	}
	if !v.IsObject() {
		return nil, errors.New("formatdecl: the response is not a JSON object")
	}
	var have []string
	v.Get("errors").Elems(func(e wire.Lenient) bool {
		if e.Get("code").StringIs(DivergentCode) {
			f, _ := e.Get("field").AsString()
			have = append(have, f)
		}
		return true
	})
	var add []json.RawMessage
	i := 0
	v.Get("products").Elems(func(p wire.Lenient) bool {
		field := fmt.Sprintf("products[%d]", i)
		i++
		why := divergence(p)
		if why == "" || slices.Contains(have, field) {
			return true
		}
		id, _ := p.Get("product_id").AsString()
		entry, err := json.Marshal(map[string]any{
			"code":     DivergentCode,
			"message":  fmt.Sprintf("Product %q declares formats that disagree: %s", id, why),
			"field":    field,
			"source":   "producer",
			"recovery": "correctable",
			"details": map[string]any{
				"product_id":             id,
				"format_ids":             json.RawMessage(orEmpty(p.Get("format_ids").Raw())),
				"format_options_summary": summary(p.Get("format_options")),
				"divergence_reason":      why,
			},
		})
		if err == nil {
			add = append(add, entry)
		}
		return true
	})
	if len(add) == 0 {
		return body, nil
	}
	var errs []json.RawMessage
	v.Get("errors").Elems(func(e wire.Lenient) bool { errs = append(errs, e.Raw()); return true })
	all, err := json.Marshal(append(errs, add...))
	if err != nil {
		return nil, fmt.Errorf("formatdecl: %w", err)
	}
	out, ok := v.WithMember("errors", all)
	if !ok {
		return nil, errors.New("formatdecl: the response is not a JSON object")
	}
	return out, nil
}

// divergence is the first format option whose v1_format_ref names a
// format the product's format_ids lack.
func divergence(p wire.Lenient) string {
	ids, opts := p.Get("format_ids"), p.Get("format_options")
	if !ids.IsArray() || !opts.IsArray() {
		return ""
	}
	why := ""
	j := 0
	opts.Elems(func(o wire.Lenient) bool {
		k := j
		j++
		o.Get("v1_format_ref").Elems(func(ref wire.Lenient) bool {
			if !listed(ids, ref) {
				url, _ := ref.Get("agent_url").AsString()
				id, _ := ref.Get("id").AsString()
				why = fmt.Sprintf("format_options[%d].v1_format_ref names %s at %s, which format_ids does not list", k, id, url)
				return false
			}
			return true
		})
		return why == ""
	})
	return why
}

// listed reports ref (agent_url and id) among ids.
func listed(ids, ref wire.Lenient) bool {
	url, _ := ref.Get("agent_url").AsString()
	id, _ := ref.Get("id").AsString()
	found := false
	ids.Elems(func(f wire.Lenient) bool {
		u, _ := f.Get("agent_url").AsString()
		found = f.Get("id").StringIs(id) && sameAgent(u, url)
		return !found
	})
	return found
}

// sameAgent compares agent URLs as format ids do, a trailing slash aside.
func sameAgent(a, b string) bool { return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/") }

// summary names each format option by its id and kind.
func summary(opts wire.Lenient) []map[string]string {
	out := []map[string]string{}
	opts.Elems(func(o wire.Lenient) bool {
		m := map[string]string{}
		for _, k := range []string{"format_option_id", "format_kind"} {
			if s, ok := o.Get(k).AsString(); ok {
				m[k] = s
			}
		}
		out = append(out, m)
		return true
	})
	return out
}

func orEmpty(raw []byte) []byte {
	if len(raw) == 0 {
		return []byte("[]")
	}
	return raw
}
