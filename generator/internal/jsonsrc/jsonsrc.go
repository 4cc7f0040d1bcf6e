// Package jsonsrc reads schema files into an ordered tree that remembers
// where every value sits, so the loader can keep document order and name
// file positions in errors. It reads with the strict runtime/wire reader:
// duplicate keys and prototype keys in a schema file are errors too.
package jsonsrc

import (
	"bytes"
	"strconv"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Kind is a JSON value type.
type Kind uint8

const (
	Null Kind = iota + 1
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{Null: "null", Bool: "boolean", Number: "number", String: "string", Array: "array", Object: "object"}

func (k Kind) String() string { return kindNames[k] }

// Node is one JSON value.
type Node struct {
	Kind    Kind
	Str     string // String value, or a Number's literal
	Bool    bool
	Members []Member // Object members in document order
	Elems   []*Node  // Array elements
	Start   int      // byte offsets of the value in its file
	End     int
}

// Member is one object member.
type Member struct {
	Key   string
	Value *Node
}

// Get returns the member named key, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil {
		return nil
	}
	for i := range n.Members {
		if n.Members[i].Key == key {
			return n.Members[i].Value
		}
	}
	return nil
}

// Parse reads one JSON document. Errors are *wire.DecodeError values with a JSON
// pointer and byte offset.
func Parse(data []byte) (*Node, error) {
	d := wire.NewDecoder(data, wire.DecodeOptions{MaxDepth: 256})
	n, err := parseValue(d)
	if err != nil {
		return nil, err
	}
	if err := d.End(); err != nil {
		return nil, err
	}
	return n, nil
}

func parseValue(d *wire.Decoder) (*Node, error) {
	n := &Node{}
	c := d.PeekKind()
	n.Start = d.Offset()
	var err error
	switch {
	case c == '{':
		n.Kind = Object
		err = parseObject(d, n)
	case c == '[':
		n.Kind = Array
		err = parseArray(d, n)
	case c == '"':
		n.Kind = String
		n.Str, err = d.String()
	case c == 't' || c == 'f':
		n.Kind = Bool
		n.Bool, err = d.Bool()
	case c == 'n':
		n.Kind = Null
		_, err = d.Null()
	default:
		n.Kind = Number
		var lit []byte
		lit, err = d.Number()
		n.Str = string(lit)
	}
	if err != nil {
		return nil, err
	}
	n.End = d.Offset()
	return n, nil
}

func parseObject(d *wire.Decoder, n *Node) error {
	if err := d.ObjectStart(); err != nil {
		return err
	}
	for {
		key, ok, err := d.NextKey()
		if err != nil || !ok {
			return err
		}
		k := string(key)
		for _, m := range n.Members {
			if m.Key == k {
				return d.Duplicate(key)
			}
		}
		v, err := parseValue(d)
		if err != nil {
			return err
		}
		n.Members = append(n.Members, Member{Key: k, Value: v})
	}
}

func parseArray(d *wire.Decoder, n *Node) error {
	if err := d.ArrayStart(); err != nil {
		return err
	}
	for {
		more, err := d.NextElem()
		if err != nil || !more {
			return err
		}
		v, err := parseValue(d)
		if err != nil {
			return err
		}
		n.Elems = append(n.Elems, v)
	}
}

// Compact renders n as compact JSON with its members in document order.
func (n *Node) Compact() string {
	var b bytes.Buffer
	n.appendCompact(&b)
	return b.String()
}

func (n *Node) appendCompact(b *bytes.Buffer) {
	switch n.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(n.Bool))
	case Number:
		b.WriteString(n.Str)
	case String:
		b.Write(wire.AppendQuoted(nil, n.Str))
	case Array:
		b.WriteByte('[')
		for i, e := range n.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.appendCompact(b)
		}
		b.WriteByte(']')
	case Object:
		b.WriteByte('{')
		for i, m := range n.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(wire.AppendQuoted(nil, m.Key))
			b.WriteByte(':')
			m.Value.appendCompact(b)
		}
		b.WriteByte('}')
	}
}

// LineCol converts a byte offset into 1-based line and column numbers.
func LineCol(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	line = 1 + bytes.Count(data[:off], []byte{'\n'})
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}
