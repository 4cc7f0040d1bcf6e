package wire

// maxProbeKeys bounds the keys one probe can watch.
const maxProbeKeys = 64

// probe looks ahead into the object at the decoder's position, without
// consuming it, and records which of Keys it has and where their values are.
// Union decoders use it to pick an arm with one look at the payload.
type probe struct {
	Keys    []string // the keys to watch, at most maxProbeKeys
	present uint64
	spans   [maxProbeKeys][2]int32
	buf     []byte
	kind    byte // first byte of the probed value
}

// probe fills p from the value at the current position. A value that is not
// an object leaves p empty (see Kind); malformed JSON is an error.
func (d *Decoder) probeObject(p *probe) error {
	p.present, p.buf = 0, d.buf
	m := d.save()
	defer d.restore(m)
	p.kind = d.skipWS()
	if p.kind != '{' {
		return nil
	}
	if err := d.ObjectStart(); err != nil {
		return err
	}
	for {
		key, ok, err := d.NextKey()
		if err != nil || !ok {
			return err
		}
		idx := -1
		for i, k := range p.Keys {
			if k == string(key) {
				idx = i
				break
			}
		}
		d.skipWS()
		start := d.pos
		if err := d.skipFast(); err != nil {
			return err
		}
		if idx >= 0 && p.present&(1<<idx) == 0 {
			p.present |= 1 << idx
			p.spans[idx] = [2]int32{int32(start), int32(d.pos)}
		}
	}
}

// Kind is the first byte of the probed value: '{', '[', '"', 't', 'f', 'n',
// a digit or '-', or 0 at the end of input.
func (p *probe) Kind() byte { return p.kind }

// Has reports whether key i is present.
func (p *probe) Has(i int) bool { return p.present&(1<<i) != 0 }

// Raw returns the raw value of key i (nil when absent).
func (p *probe) Raw(i int) []byte {
	if !p.Has(i) {
		return nil
	}
	s := p.spans[i]
	return p.buf[s[0]:s[1]]
}

// StringIs reports whether key i holds the string s (escapes decoded).
func (p *probe) StringIs(i int, s string) bool {
	raw := p.Raw(i)
	if len(raw) < 2 || raw[0] != '"' {
		return false
	}
	inner := raw[1 : len(raw)-1]
	if string(inner) == s {
		return true
	}
	for _, c := range inner {
		if c == '\\' {
			var scratch []byte
			tmp := Decoder{buf: raw}
			got, err := tmp.readString(&scratch)
			return err == nil && string(got) == s
		}
	}
	return false
}

// BoolIs reports whether key i holds the boolean b.
func (p *probe) BoolIs(i int, b bool) bool {
	raw := p.Raw(i)
	if b {
		return string(raw) == "true"
	}
	return string(raw) == "false"
}

// IsNull reports whether key i holds null.
func (p *probe) IsNull(i int) bool { return string(p.Raw(i)) == "null" }

// ValueKind is the first byte of key i's value (0 when absent).
func (p *probe) ValueKind(i int) byte {
	if raw := p.Raw(i); len(raw) > 0 {
		return raw[0]
	}
	return 0
}

// PeekKind returns the first byte of the next value without consuming it.
func (d *Decoder) PeekKind() byte { return d.skipWS() }

// skipFast steps over one value, matching brackets without recursion. It
// checks structure only; the decode that follows a probe checks the rest.
func (d *Decoder) skipFast() error {
	depth := 0
	for {
		switch c := d.skipWS(); c {
		case '{', '[':
			depth++
			if len(d.stack)+depth > d.maxDepth {
				return d.errAt(KindDepth, "nesting too deep")
			}
			d.pos++
		case '}', ']':
			if depth == 0 {
				return d.syntaxErr("unexpected " + describeByte(c))
			}
			depth--
			d.pos++
		case ',', ':':
			if depth == 0 {
				return d.syntaxErr("unexpected " + describeByte(c))
			}
			d.pos++
			continue
		case '"':
			if _, err := d.readString(&d.scratch); err != nil {
				return err
			}
		case 't':
			if err := d.literal("true"); err != nil {
				return err
			}
		case 'f':
			if err := d.literal("false"); err != nil {
				return err
			}
		case 'n':
			if err := d.literal("null"); err != nil {
				return err
			}
		case 0:
			return d.syntaxErr("unexpected end of input")
		default:
			if c != '-' && (c < '0' || c > '9') {
				return d.syntaxErr("unexpected " + describeByte(c))
			}
			if _, _, err := d.scanNumber(); err != nil {
				return err
			}
		}
		if depth == 0 {
			return nil
		}
	}
}
