package synth

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Instance values are nil, bool, json.Number, string, []any and *Obj.

// Obj is a JSON object whose members keep their order; it may hold the
// same key twice (a mutation).
type Obj struct {
	Members []Member
}

// Member is one object member. RawKey, when set, is written instead of
// the quoted Key (an escaped spelling).
type Member struct {
	Key    string
	RawKey string
	Val    any
}

// Get returns the value of the first member named key.
func (o *Obj) Get(key string) (any, bool) {
	for _, m := range o.Members {
		if m.Key == key {
			return m.Val, true
		}
	}
	return nil, false
}

// Has reports whether key is present.
func (o *Obj) Has(key string) bool {
	_, ok := o.Get(key)
	return ok
}

// Set replaces the value of key, or appends it.
func (o *Obj) Set(key string, v any) {
	for i := range o.Members {
		if o.Members[i].Key == key {
			o.Members[i].Val = v
			return
		}
	}
	o.Members = append(o.Members, Member{Key: key, Val: v})
}

// Delete removes every member named key.
func (o *Obj) Delete(key string) {
	out := o.Members[:0]
	for _, m := range o.Members {
		if m.Key != key {
			out = append(out, m)
		}
	}
	o.Members = out
}

// Marshal writes v as compact JSON, members in order.
func Marshal(v any) []byte { return appendJSON(nil, v) }

func appendJSON(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case json.Number:
		return append(b, x...)
	case string:
		return wire.AppendQuoted(b, x)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case *Obj:
		b = append(b, '{')
		for i, m := range x.Members {
			if i > 0 {
				b = append(b, ',')
			}
			if m.RawKey != "" {
				b = append(b, m.RawKey...)
			} else {
				b = wire.AppendQuoted(b, m.Key)
			}
			b = append(b, ':')
			b = appendJSON(b, m.Val)
		}
		return append(b, '}')
	case map[string]any: // a schema const
		return appendJSON(b, fromSchema(x))
	}
	panic("synth: cannot marshal " + strconv.Quote(typeName(v)))
}

// fromSchema turns a schema literal (const, enum value, example) into an
// instance value; object keys are sorted so output is stable.
func fromSchema(v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := &Obj{}
		for _, k := range keys {
			o.Members = append(o.Members, Member{Key: k, Val: fromSchema(x[k])})
		}
		return o
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fromSchema(e)
		}
		return out
	case float64:
		return json.Number(strconv.FormatFloat(x, 'f', -1, 64))
	}
	return v
}

// clone copies v deeply.
func clone(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clone(e)
		}
		return out
	case *Obj:
		o := &Obj{Members: make([]Member, len(x.Members))}
		for i, m := range x.Members {
			o.Members[i] = Member{Key: m.Key, RawKey: m.RawKey, Val: clone(m.Val)}
		}
		return o
	}
	return v
}

// at returns the value at a pointer (tokens).
func at(v any, ptr []string) (any, bool) {
	for _, tok := range ptr {
		switch x := v.(type) {
		case *Obj:
			var ok bool
			if v, ok = x.Get(tok); !ok {
				return nil, false
			}
		case []any:
			i, err := atoi(tok)
			if err != nil || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// equal compares two JSON values (instance or schema literals); numbers by
// value, objects regardless of member order.
func equal(a, b any) bool {
	a, b = normal(a), normal(b)
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, ex := x.Float64()
		fy, ey := y.Float64()
		return ex == nil && ey == nil && fx == fy
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Obj:
		y, ok := b.(*Obj)
		if !ok || len(x.Members) != len(y.Members) {
			return false
		}
		for _, m := range x.Members {
			w, ok := y.Get(m.Key)
			if !ok || !equal(m.Val, w) {
				return false
			}
		}
		return true
	}
	return false
}

func normal(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return fromSchema(x)
	case float64:
		return fromSchema(x)
	case int:
		return json.Number(strconv.Itoa(x))
	}
	return v
}

// num is a JSON number's value (NaN when v is not a number).
func num(v any) float64 {
	if n, ok := v.(json.Number); ok {
		if f, err := n.Float64(); err == nil {
			return f
		}
	}
	return math.NaN()
}

// jsonType names v's JSON type ("integer" for whole numbers).
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		f := num(x)
		if f == math.Trunc(f) && !math.IsInf(f, 0) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case *Obj, map[string]any:
		return "object"
	}
	return "unknown"
}

func typeName(v any) string {
	return jsonType(v)
}
