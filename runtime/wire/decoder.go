package wire

import (
	"errors"
	"reflect"
	"strconv"
	"sync"
)

// DefaultMaxDepth bounds nesting when DecodeOptions.MaxDepth is zero.
const DefaultMaxDepth = 512

// DecodeOptions tune a Decoder.
type DecodeOptions struct {
	// Exact rejects unknown fields and unknown enum values.
	Exact bool
	// MaxDepth bounds object/array nesting; 0 means DefaultMaxDepth.
	MaxDepth int
}

// Decoder reads one JSON document held in memory, strictly, value by
// value: code that reads JSON by hand drives it the way Unmarshal reads a
// generated type (the same checks, the same errors). It keeps the path to
// the current value so errors carry a JSON pointer.
type Decoder struct {
	buf      []byte
	pos      int
	exact    bool
	maxDepth int
	stack    []frame
	scratch  []byte // unescaped strings
	keyBuf   []byte // unescaped keys

	// Blocks decoded values are carved from (see arena.go).
	arena  []byte
	floats []float64
	ints   []int64
	strs   []string
	bools  []bool

	// mapKey is a settable string reused for the keys of maps the engine
	// fills through reflection.
	mapKey reflect.Value

	// Keys of the objects walkObject is inside, for duplicate checks:
	// their bytes in keyText, one span each in keySpans.
	keyText  []byte
	keySpans []keySpan
}

// frame is one open object or array on the path to the current value.
type frame struct {
	array    bool
	count    int // members or elements started so far
	keyStart int // raw (escaped) bytes of the current key, for pointers
	keyEnd   int
}

var decoderPool = sync.Pool{New: func() any { return new(Decoder) }}

// NewDecoder returns a decoder over data. Use Unmarshal unless you drive the
// reading yourself.
func NewDecoder(data []byte, opts DecodeOptions) *Decoder {
	d := new(Decoder)
	d.reset(data, opts)
	return d
}

func (d *Decoder) reset(data []byte, opts DecodeOptions) {
	d.buf, d.pos, d.exact = data, 0, opts.Exact
	d.maxDepth = opts.MaxDepth
	if d.maxDepth <= 0 {
		d.maxDepth = DefaultMaxDepth
	}
	d.stack = d.stack[:0]
}

// Unmarshal decodes data into v strictly (default mode).
func Unmarshal(data []byte, v Decodable) error { return UnmarshalOptions(data, v, DecodeOptions{}) }

// UnmarshalExact decodes data into v, also rejecting unknown fields and enum
// values.
func UnmarshalExact(data []byte, v Decodable) error {
	return UnmarshalOptions(data, v, DecodeOptions{Exact: true})
}

// UnmarshalOptions decodes data into v with opts. The whole input must be one
// JSON value, optionally surrounded by whitespace. v is reset first.
func UnmarshalOptions(data []byte, v Decodable, opts DecodeOptions) error {
	if v == nil || reflect.ValueOf(v).IsNil() {
		return errNilTarget
	}
	d := decoderPool.Get().(*Decoder)
	d.reset(data, opts)
	err := d.decodeTop(v)
	if err == nil {
		err = d.End()
	}
	d.release()
	return err
}

// errNilTarget is Unmarshal's answer when given nowhere to decode to.
var errNilTarget = errors.New("wire: Unmarshal into a nil value")

// release returns a decoder to the pool, dropping buffers a large document
// grew.
func (d *Decoder) release() {
	d.buf = nil
	if cap(d.scratch) > 64<<10 {
		d.scratch = nil
	}
	if cap(d.keyText) > 64<<10 {
		d.keyText, d.keySpans = nil, nil
	}
	decoderPool.Put(d)
}

// End checks that nothing but whitespace follows the value just read.
func (d *Decoder) End() error {
	if c := d.skipWS(); d.pos < len(d.buf) {
		return d.syntaxErr("unexpected " + describeByte(c) + " after the top-level value")
	}
	return nil
}

// Exact reports whether unknown fields and enum values are rejected.
func (d *Decoder) Exact() bool { return d.exact }

// Offset is the current byte offset in the input.
func (d *Decoder) Offset() int { return d.pos }

func (d *Decoder) push(array bool) error {
	if len(d.stack) >= d.maxDepth {
		return d.errAt(KindDepth, "nesting deeper than "+strconv.Itoa(d.maxDepth)+" levels")
	}
	d.stack = append(d.stack, frame{array: array, keyStart: -1})
	return nil
}

func (d *Decoder) pop() { d.stack = d.stack[:len(d.stack)-1] }

// ObjectStart consumes '{'. Read members with NextKey until it reports false.
func (d *Decoder) ObjectStart() error {
	c := d.skipWS()
	if c != '{' {
		return d.typeErr("object", c)
	}
	d.pos++
	return d.push(false)
}

// NextKey reads the next member's key and the ':' after it. It returns
// ok=false after consuming the closing '}'. The key is unescaped and valid
// until the next call; forbidden keys are rejected here, at every depth.
func (d *Decoder) NextKey() (key []byte, ok bool, err error) {
	f := &d.stack[len(d.stack)-1]
	c := d.skipWS()
	if c == '}' {
		d.pos++
		d.pop()
		return nil, false, nil
	}
	if f.count > 0 {
		if c != ',' {
			return nil, false, d.syntaxErr("want ',' or '}' after an object member, got " + describeByte(c))
		}
		d.pos++
		c = d.skipWS()
	}
	if c != '"' {
		return nil, false, d.syntaxErr("want a string key, got " + describeByte(c))
	}
	f.count++
	f.keyStart = -1 // errors inside the key point at the object
	start := d.pos + 1
	key, err = d.readString(&d.keyBuf)
	if err != nil {
		return nil, false, err
	}
	f.keyStart, f.keyEnd = start, d.pos-1
	if isForbiddenKey(key) {
		return nil, false, d.errAt(KindForbiddenKey, "forbidden key "+strconv.Quote(string(key)))
	}
	if c = d.skipWS(); c != ':' {
		return nil, false, d.syntaxErr("want ':' after an object key, got " + describeByte(c))
	}
	d.pos++
	return key, true, nil
}

// ArrayStart consumes '['. Read elements with NextElem until it reports false.
func (d *Decoder) ArrayStart() error {
	c := d.skipWS()
	if c != '[' {
		return d.typeErr("array", c)
	}
	d.pos++
	return d.push(true)
}

// NextElem positions the decoder at the next element, or consumes ']' and
// returns false.
func (d *Decoder) NextElem() (bool, error) {
	f := &d.stack[len(d.stack)-1]
	c := d.skipWS()
	if c == ']' {
		d.pos++
		d.pop()
		return false, nil
	}
	if f.count > 0 {
		if c != ',' {
			return false, d.syntaxErr("want ',' or ']' after an array element, got " + describeByte(c))
		}
		d.pos++
		if d.skipWS() == ']' {
			return false, d.syntaxErr("trailing ',' before ']'")
		}
	}
	f.count++
	return true, nil
}

// isForbiddenKey reports the keys that pollute JavaScript prototypes.
func isForbiddenKey(k []byte) bool {
	switch len(k) {
	case 9:
		return string(k) == "__proto__" || string(k) == "prototype"
	case 11:
		return string(k) == "constructor"
	}
	return false
}

// position is a saved decoder position (see restore).
type position struct {
	pos   int
	depth int
	top   frame
}

// save saves the position so the engine can try a reading and rewind.
func (d *Decoder) save() position {
	m := position{pos: d.pos, depth: len(d.stack)}
	if len(d.stack) > 0 {
		m.top = d.stack[len(d.stack)-1]
	}
	return m
}

// restore rewinds to m.
func (d *Decoder) restore(m position) {
	d.pos = m.pos
	d.stack = d.stack[:m.depth]
	if m.depth > 0 {
		d.stack[m.depth-1] = m.top
	}
}
