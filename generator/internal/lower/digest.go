package lower

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// digestLen is how many hex digits of the hash a digest keeps: enough to
// tell apart the few thousand schemas of a package.
const digestLen = 12

// setDigests fingerprints every type's schema (ir.Type.Digest): the JSON
// of its node, and of the merge's for a merged copy, with members sorted,
// $ref without the version its $id style carries, and without what only
// documents a schema (see annotation), so the same schema has the same
// digest in every version and wherever it sits (a union arm shifted by an
// arm inserted before it, a definition moved to another file), whatever
// its description says. TextDigest is the fingerprint of the whole text,
// which adcpgen recorded before, to know the schemas of a package it
// generated then.
func (b *builder) setDigests() {
	for _, t := range b.pkg.Types {
		t.Digest = b.digest(t, writeShape)
		t.TextDigest = b.digest(t, writeCanonical)
	}
}

func (b *builder) digest(t *ir.Type, write func(*bytes.Buffer, *jsonsrc.Node)) string {
	h := sha256.New()
	h.Write([]byte(b.canonical(t.Loc, write)))
	if t.Merged.File != "" {
		h.Write([]byte{0})
		h.Write([]byte(b.canonical(t.Merged, write)))
	}
	return hex.EncodeToString(h.Sum(nil))[:digestLen]
}

// canonical is the node at loc as canonical JSON, written by write ("" when
// it is not found).
func (b *builder) canonical(loc schema.Loc, write func(*bytes.Buffer, *jsonsrc.Node)) string {
	doc := b.set.Doc(loc.File)
	if doc == nil {
		return ""
	}
	n := doc.Source
	for _, tok := range wire.SplitPointer(loc.Pointer) {
		switch {
		case n == nil:
			return ""
		case n.Kind == jsonsrc.Object:
			n = n.Get(tok)
		case n.Kind == jsonsrc.Array:
			i := indexOf(tok)
			if i < 0 || i >= len(n.Elems) {
				return ""
			}
			n = n.Elems[i]
		default:
			return ""
		}
	}
	if n == nil {
		return ""
	}
	var buf bytes.Buffer
	write(&buf, n)
	return buf.String()
}

func indexOf(tok string) int {
	i := 0
	if tok == "" {
		return -1
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			return -1
		}
		i = i*10 + int(c-'0')
		if i > 1<<20 {
			return -1
		}
	}
	return i
}

// writeCanonical writes n as JSON with members sorted, $id left out and
// $ref without its version prefix.
func writeCanonical(b *bytes.Buffer, n *jsonsrc.Node) {
	switch n.Kind {
	case jsonsrc.Object:
		members := slices.Clone(n.Members)
		slices.SortFunc(members, func(x, y jsonsrc.Member) int { return strings.Compare(x.Key, y.Key) })
		b.WriteByte('{')
		first := true
		for _, m := range members {
			if m.Key == "$id" {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.Write(wire.AppendQuoted(nil, m.Key))
			b.WriteByte(':')
			if m.Key == "$ref" && m.Value.Kind == jsonsrc.String {
				b.Write(wire.AppendQuoted(nil, registry.SchemaKey(m.Value.Str)))
				continue
			}
			writeCanonical(b, m.Value)
		}
		b.WriteByte('}')
	case jsonsrc.Array:
		b.WriteByte('[')
		for i, e := range n.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, e)
		}
		b.WriteByte(']')
	default:
		b.WriteString(n.Compact())
	}
}

// annotation reports a keyword that documents a schema without saying
// what its instances may be: JSON Schema's annotations (title,
// description, $comment, examples, default, deprecated, readOnly,
// writeOnly), AdCP's enumDescriptions and any extension keyword (x-...).
// $schema and $id only say where the schema sits.
func annotation(key string) bool {
	switch key {
	case "title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly",
		"enumDescriptions", "$schema", "$id":
		return true
	}
	return strings.HasPrefix(key, "x-")
}

// writeShape writes the schema n as writeCanonical does, leaving out its
// annotations and those of the schemas inside it, but never a property's
// name or a value the schema fixes (enum, const).
func writeShape(b *bytes.Buffer, n *jsonsrc.Node) {
	if n.Kind != jsonsrc.Object {
		writeCanonical(b, n) // true, false
		return
	}
	members := slices.Clone(n.Members)
	slices.SortFunc(members, func(x, y jsonsrc.Member) int { return strings.Compare(x.Key, y.Key) })
	b.WriteByte('{')
	first := true
	for _, m := range members {
		if annotation(m.Key) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.Write(wire.AppendQuoted(nil, m.Key))
		b.WriteByte(':')
		v := m.Value
		switch m.Key {
		case "$ref":
			if v.Kind == jsonsrc.String {
				b.Write(wire.AppendQuoted(nil, registry.SchemaKey(v.Str)))
				continue
			}
		case "items", "additionalItems", "additionalProperties", "not", "if", "then", "else", "contains",
			"propertyNames", "allOf", "anyOf", "oneOf":
			if v.Kind == jsonsrc.Array {
				b.WriteByte('[')
				for i, e := range v.Elems {
					if i > 0 {
						b.WriteByte(',')
					}
					writeShape(b, e)
				}
				b.WriteByte(']')
				continue
			}
			writeShape(b, v)
			continue
		case "properties", "patternProperties", "definitions", "$defs", "dependencies":
			if v.Kind == jsonsrc.Object {
				named := slices.Clone(v.Members)
				slices.SortFunc(named, func(x, y jsonsrc.Member) int { return strings.Compare(x.Key, y.Key) })
				b.WriteByte('{')
				for i, p := range named {
					if i > 0 {
						b.WriteByte(',')
					}
					b.Write(wire.AppendQuoted(nil, p.Key))
					b.WriteByte(':')
					if p.Value.Kind == jsonsrc.Object || p.Value.Kind == jsonsrc.Bool {
						writeShape(b, p.Value)
					} else {
						writeCanonical(b, p.Value) // dependencies' arrays of names
					}
				}
				b.WriteByte('}')
				continue
			}
		}
		writeCanonical(b, v)
	}
	b.WriteByte('}')
}
