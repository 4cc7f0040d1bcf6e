package lower

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

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
// $ref without the version its $id style carries and $id left out, so the
// same schema text has the same digest in every version and wherever it
// sits (a union arm shifted by an arm inserted before it, a definition
// moved to another file).
func (b *builder) setDigests() {
	for _, t := range b.pkg.Types {
		h := sha256.New()
		h.Write([]byte(b.canonical(t.Loc)))
		if t.Merged.File != "" {
			h.Write([]byte{0})
			h.Write([]byte(b.canonical(t.Merged)))
		}
		t.Digest = hex.EncodeToString(h.Sum(nil))[:digestLen]
	}
}

// canonical is the node at loc as canonical JSON ("" when it is not found).
func (b *builder) canonical(loc schema.Loc) string {
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
	writeCanonical(&buf, n)
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
