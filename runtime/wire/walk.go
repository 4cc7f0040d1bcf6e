package wire

// walkValue reads one value of any type with every strict check: forbidden
// and duplicate keys at every depth, UTF-8, number syntax and the depth limit.
func (d *Decoder) walkValue() error {
	switch c := d.skipWS(); c {
	case '{':
		return d.walkObject()
	case '[':
		if err := d.ArrayStart(); err != nil {
			return err
		}
		for {
			ok, err := d.NextElem()
			if err != nil || !ok {
				return err
			}
			if err := d.walkValue(); err != nil {
				return err
			}
		}
	case '"':
		_, err := d.readString(&d.scratch)
		return err
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	case 0:
		return d.syntaxErr("want a value, got end of input")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			_, _, err := d.scanNumber()
			return err
		}
		return d.syntaxErr("want a value, got " + describeByte(c))
	}
}

// keySpan is one key of an object being walked: keyText[off:off+n].
type keySpan struct{ off, n int32 }

// maxLinearKeys is how many keys an object may have before walkObject
// checks duplicates with a map instead of comparing each new key with
// every earlier one.
const maxLinearKeys = 32

// walkObject checks an object of unknown shape, tracking its keys to reject
// duplicates: copied into the decoder's key buffer and compared linearly
// (no allocation), a set once the object grows large.
func (d *Decoder) walkObject() error {
	if err := d.ObjectStart(); err != nil {
		return err
	}
	spanBase, textBase := len(d.keySpans), len(d.keyText)
	defer func() { d.keySpans, d.keyText = d.keySpans[:spanBase], d.keyText[:textBase] }()
	var set map[string]struct{}
	for {
		key, ok, err := d.NextKey()
		if err != nil || !ok {
			return err
		}
		if set != nil {
			if _, dup := set[string(key)]; dup {
				return d.Duplicate(key)
			}
			set[string(key)] = struct{}{}
		} else {
			mine := d.keySpans[spanBase:]
			for _, s := range mine {
				if string(d.keyText[s.off:s.off+s.n]) == string(key) {
					return d.Duplicate(key)
				}
			}
			if len(mine) < maxLinearKeys {
				d.keySpans = append(d.keySpans, keySpan{int32(len(d.keyText)), int32(len(key))})
				d.keyText = append(d.keyText, key...)
			} else {
				set = make(map[string]struct{}, 2*len(mine))
				for _, s := range mine {
					set[string(d.keyText[s.off:s.off+s.n])] = struct{}{}
				}
				set[string(key)] = struct{}{}
			}
		}
		if err := d.walkValue(); err != nil {
			return err
		}
	}
}

// Valid reports, as a *DecodeError, the first reason data is not one strict JSON
// value, or nil.
func Valid(data []byte) error {
	d := decoderPool.Get().(*Decoder)
	d.reset(data, DecodeOptions{})
	err := d.walkValue()
	if err == nil {
		err = d.End()
	}
	d.release()
	return err
}
