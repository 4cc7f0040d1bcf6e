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

// walkObject checks an object of unknown shape, tracking its keys to reject
// duplicates: a short list compared linearly, a set once it grows.
func (d *Decoder) walkObject() error {
	if err := d.ObjectStart(); err != nil {
		return err
	}
	var few [8]string
	keys := few[:0]
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
			for _, k := range keys {
				if k == string(key) {
					return d.Duplicate(key)
				}
			}
			if len(keys) < cap(few) {
				keys = append(keys, string(key))
			} else {
				set = make(map[string]struct{}, 2*len(keys))
				for _, k := range keys {
					set[k] = struct{}{}
				}
				set[string(key)] = struct{}{}
			}
		}
		if err := d.walkValue(); err != nil {
			return err
		}
	}
}

// Valid reports, as an *Error, the first reason data is not one strict JSON
// value, or nil.
func Valid(data []byte) error {
	d := decoderPool.Get().(*Decoder)
	d.reset(data, Options{})
	err := d.walkValue()
	if err == nil {
		err = d.End()
	}
	d.buf = nil
	decoderPool.Put(d)
	return err
}
