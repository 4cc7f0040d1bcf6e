package wire

import (
	"encoding/json"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/adcpgen/adcpgen/runtime/internal/wiredesc"
)

// decodeTop reads into v, a non-nil pointer to a generated type, as its
// Desc says, after resetting it.
func (d *Decoder) decodeTop(v Value) error {
	rv := reflect.ValueOf(v)
	rv.Elem().SetZero()
	return d.decodeValue(rv.UnsafePointer(), v.WireDesc())
}

// decodeValue reads a value of type t into p, which holds t's zero value.
func (d *Decoder) decodeValue(p unsafe.Pointer, t *wiredesc.Desc) error {
	if t.Const != "" {
		return d.decodeConst(p, t)
	}
	switch t.Shape {
	case wiredesc.ShapeString:
		s, err := d.String()
		if err != nil {
			return err
		}
		*(*string)(p) = s
		if t.Enum != nil && d.exact && !t.Known(s) {
			return d.unknownEnum(s, t.Enum)
		}
		return nil
	case wiredesc.ShapeInt:
		n, err := d.Int()
		if err != nil {
			return err
		}
		*(*int64)(p) = n
		if t.Enum != nil && d.exact && !t.KnownInt(n) {
			return d.unknownEnum(strconv.FormatInt(n, 10), t.Enum)
		}
		return nil
	case wiredesc.ShapeFloat:
		f, err := d.Float()
		*(*float64)(p) = f
		return err
	case wiredesc.ShapeBool:
		b, err := d.Bool()
		*(*bool)(p) = b
		return err
	case wiredesc.ShapeRaw:
		raw, err := d.Raw()
		*(*json.RawMessage)(p) = raw
		return err
	case wiredesc.ShapeStruct:
		return d.decodeStruct(p, t)
	case wiredesc.ShapeUnion:
		return d.decodeUnion(p, t)
	case wiredesc.ShapeSlice:
		return d.decodeSlice(p, t)
	case wiredesc.ShapeMap:
		return d.decodeMap(p, t)
	case wiredesc.ShapeNullable:
		return d.decodeNullable(p, t)
	case wiredesc.ShapeLate:
		return d.decodeValue(p, target(t))
	}
	panic("wire: Desc " + t.Name + " has no shape")
}

// decodeConst checks a value the schema fixes and stores the schema's value.
func (d *Decoder) decodeConst(p unsafe.Pointer, t *wiredesc.Desc) error {
	if err := d.expectConst(t.Const); err != nil {
		return err
	}
	switch v := t.Value.(type) {
	case string:
		*(*string)(p) = v
	case int64:
		*(*int64)(p) = v
	case float64:
		*(*float64)(p) = v
	case bool:
		*(*bool)(p) = v
	default:
		panic("wire: const Desc " + t.Const + " has no Go value")
	}
	return nil
}

// decodePtr reads a value of type t into a new variable and stores its
// address in the pointer field at p.
func (d *Decoder) decodePtr(p unsafe.Pointer, t *wiredesc.Desc) error {
	t = target(t)
	v := d.alloc(t)
	if err := d.decodeValue(v, t); err != nil {
		return err
	}
	*(*unsafe.Pointer)(p) = v
	return nil
}

// alloc returns a new zero value of type t: scalars from the decoder's
// slabs (see arena.go), anything else from the heap.
func (d *Decoder) alloc(t *wiredesc.Desc) unsafe.Pointer {
	switch t.Shape {
	case wiredesc.ShapeString:
		return unsafe.Pointer(newScalar(&d.strs))
	case wiredesc.ShapeInt:
		return unsafe.Pointer(newScalar(&d.ints))
	case wiredesc.ShapeFloat:
		return unsafe.Pointer(newScalar(&d.floats))
	case wiredesc.ShapeBool:
		return unsafe.Pointer(newScalar(&d.bools))
	}
	return reflect.New(infos(t).rt).UnsafePointer()
}

func (d *Decoder) decodeStruct(base unsafe.Pointer, t *wiredesc.Desc) error {
	in := infos(t)
	if err := d.ObjectStart(); err != nil {
		return err
	}
	var buf [4]uint64
	seen := buf[:]
	if in.words > len(buf) {
		seen = make([]uint64, in.words)
	}
	for {
		key, ok, err := d.NextKey()
		if err != nil {
			return err
		}
		if !ok {
			if in.required != nil {
				return d.checkRequired(seen, in.required)
			}
			return nil
		}
		if i := in.lookup(key); i >= 0 {
			m := &in.members[i]
			if isSeen(seen, i) {
				return d.Duplicate(key)
			}
			switch {
			case m.fixed:
				err = d.expectConst(m.desc.Const)
			case m.ptr:
				err = d.decodePtr(unsafe.Add(base, m.off), m.desc)
			default:
				err = d.decodeValue(unsafe.Add(base, m.off), m.desc)
			}
		} else {
			err = d.decodeUndeclared(base, t, in, key)
		}
		if err != nil {
			return err
		}
	}
}

// decodeUndeclared reads a member the struct does not declare: into the
// map of the first key pattern it matches, else as Extra says.
func (d *Decoder) decodeUndeclared(base unsafe.Pointer, t *wiredesc.Desc, in *descInfo, key []byte) error {
	for i, kp := range t.KeyPatterns {
		if kp.Match(key) {
			return d.decodeEntry(unsafe.Add(base, in.offs[i]), kp.Map, key)
		}
	}
	switch t.Extra {
	case wiredesc.ExtraReject:
		return d.unknownField(key)
	case wiredesc.ExtraTyped:
		return d.decodeEntry(unsafe.Add(base, in.offs[len(t.KeyPatterns)]), t.ExtraMap, key)
	}
	return d.keepUnknown(key, (*map[string]json.RawMessage)(unsafe.Add(base, in.offs[len(t.KeyPatterns)])))
}

// sliceHeader is the layout of every Go slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// zeroBase is where empty slices point: non-nil, so a present empty array
// stays distinct from an absent one, and nothing is allocated.
var zeroBase [0]uint64

func (d *Decoder) decodeSlice(p unsafe.Pointer, t *wiredesc.Desc) error {
	if err := d.ArrayStart(); err != nil {
		return err
	}
	in := infos(t)
	h := (*sliceHeader)(p)
	if d.skipWS() == ']' {
		h.data = unsafe.Pointer(&zeroBase)
	} else {
		growSlice(in, p, 4)
	}
	size := sizeOf(in.elem)
	for {
		more, err := d.NextElem()
		if err != nil || !more {
			return err
		}
		if h.len == h.cap {
			growSlice(in, p, 1)
		}
		e := unsafe.Add(h.data, uintptr(h.len)*size)
		h.len++
		if err := d.decodeValue(e, in.elem); err != nil {
			return err
		}
	}
}

// growSlice makes room for n more elements in the slice at p, as append
// would: the same growth, and the new elements zero.
func growSlice(in *descInfo, p unsafe.Pointer, n int) {
	switch in.native {
	case nativeString:
		growNative[string](p, n)
	case nativeInt:
		growNative[int64](p, n)
	case nativeFloat:
		growNative[float64](p, n)
	case nativeBool:
		growNative[bool](p, n)
	case nativeRaw:
		growNative[json.RawMessage](p, n)
	default:
		reflect.NewAt(in.rt, p).Elem().Grow(n)
	}
}

func growNative[E any](p unsafe.Pointer, n int) {
	s := (*[]E)(p)
	if len(*s) == 0 && cap(*s) == 0 {
		*s = make([]E, 0, n)
		return
	}
	*s = append((*s)[:cap(*s)], make([]E, n)...)[:len(*s)]
}

func (d *Decoder) decodeNullable(p unsafe.Pointer, t *wiredesc.Desc) error {
	null, err := d.Null()
	if err != nil {
		return err
	}
	in := infos(t)
	state := (*uint8)(unsafe.Add(p, sizeOf(in.elem)))
	if null {
		*state = 1
		return nil
	}
	if err := d.decodeValue(p, in.elem); err != nil {
		return err
	}
	*state = 2
	return nil
}

func (d *Decoder) decodeMap(p unsafe.Pointer, t *wiredesc.Desc) error {
	if err := d.ObjectStart(); err != nil {
		return err
	}
	in := infos(t)
	switch in.native {
	case nativeRaw:
		return decodeNativeMap(d, p, in.elem, (*Decoder).Raw)
	case nativeString:
		return decodeNativeMap(d, p, in.elem, (*Decoder).String)
	case nativeInt:
		return decodeNativeMap(d, p, in.elem, (*Decoder).Int)
	case nativeFloat:
		return decodeNativeMap(d, p, in.elem, (*Decoder).Float)
	case nativeBool:
		return decodeNativeMap(d, p, in.elem, (*Decoder).Bool)
	}
	m := reflect.MakeMap(in.rt)
	scratch := reflect.New(in.rt.Elem()).Elem()
	for {
		key, ok, err := d.NextKey()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if err := d.putEntry(m, scratch, in.elem, key); err != nil {
			return err
		}
	}
	*(*unsafe.Pointer)(p) = m.UnsafePointer()
	return nil
}

// decodeNativeMap reads the members of a map of builtin scalars (see
// decodeNativeEntry).
func decodeNativeMap[V any](d *Decoder, p unsafe.Pointer, elem *wiredesc.Desc, read func(*Decoder) (V, error)) error {
	*(*map[string]V)(p) = make(map[string]V)
	for {
		key, ok, err := d.NextKey()
		if err != nil || !ok {
			return err
		}
		if err := decodeNativeEntry(d, p, elem, key, read); err != nil {
			return err
		}
	}
}

// putEntry reads one member into the map m (a reflect.Value), through
// scratch, a settable value of m's element type left zero.
func (d *Decoder) putEntry(m, scratch reflect.Value, elem *wiredesc.Desc, key []byte) error {
	// The key holder is shared with maps nested in the value, and the key
	// bytes are the decoder's: keep a copy across the value's decoding.
	kv := d.keyValue()
	kv.SetString(unsafeString(key))
	dup := m.MapIndex(kv).IsValid()
	kv.SetString("")
	if dup {
		return d.Duplicate(key)
	}
	k := d.copyString(key)
	if err := d.decodeValue(scratch.Addr().UnsafePointer(), elem); err != nil {
		return err
	}
	kv.SetString(k)
	m.SetMapIndex(kv, scratch)
	kv.SetString("")
	scratch.SetZero()
	return nil
}

// keyValue is a settable string the decoder reuses for map keys.
func (d *Decoder) keyValue() reflect.Value {
	if !d.mapKey.IsValid() {
		d.mapKey = reflect.New(typeString).Elem()
	}
	return d.mapKey
}

// decodeEntry reads one member into the map field at p (typed extra
// members and key patterns), making the map on first use.
func (d *Decoder) decodeEntry(p unsafe.Pointer, t *wiredesc.Desc, key []byte) error {
	in := infos(t)
	switch in.native {
	case nativeRaw:
		return decodeNativeEntry(d, p, in.elem, key, (*Decoder).Raw)
	case nativeString:
		return decodeNativeEntry(d, p, in.elem, key, (*Decoder).String)
	case nativeInt:
		return decodeNativeEntry(d, p, in.elem, key, (*Decoder).Int)
	case nativeFloat:
		return decodeNativeEntry(d, p, in.elem, key, (*Decoder).Float)
	case nativeBool:
		return decodeNativeEntry(d, p, in.elem, key, (*Decoder).Bool)
	}
	mp := reflect.NewAt(in.rt, p).Elem()
	if mp.IsNil() {
		mp.Set(reflect.MakeMap(in.rt))
	}
	return d.putEntry(mp, reflect.New(in.rt.Elem()).Elem(), in.elem, key)
}

// decodeNativeEntry reads one member into the map of builtin scalars at
// p, making it on first use; read reads one value (a const or an enum goes
// through decodeValue).
func decodeNativeEntry[V any](d *Decoder, p unsafe.Pointer, elem *wiredesc.Desc, key []byte, read func(*Decoder) (V, error)) error {
	m := (*map[string]V)(p)
	if *m == nil {
		*m = make(map[string]V)
	}
	if _, dup := (*m)[string(key)]; dup {
		return d.Duplicate(key)
	}
	k := d.copyString(key)
	var v V
	var err error
	if elem.Const == "" && elem.Enum == nil {
		v, err = read(d)
	} else {
		err = d.decodeValue(unsafe.Pointer(&v), elem)
	}
	if err != nil {
		return err
	}
	(*m)[k] = v
	return nil
}

func (d *Decoder) decodeUnion(p unsafe.Pointer, t *wiredesc.Desc) error {
	u, in := t.Union, infos(t)
	switch u.Strategy {
	case wiredesc.ByTrial:
		m := d.save()
		var fails []ArmError
		for i, a := range u.Arms {
			err := d.decodeArm(p, in, i)
			if err == nil {
				return nil
			}
			fails = append(fails, ArmError{Arm: a.Name, Reason: err.Error()})
			zeroAt(in.rt, p)
			d.restore(m)
		}
		return d.noArm(u.Name, fails)
	case wiredesc.ByPresence:
		arms, err := d.pickArms(u)
		if err != nil {
			return err
		}
		return d.decodeCandidates(u, arms, func(arm int) error {
			zeroAt(in.rt, p)
			return d.decodeArm(p, in, arm)
		})
	}
	arm, err := d.pickArm(u)
	if err != nil {
		return err
	}
	return d.decodeArm(p, in, arm)
}

func (d *Decoder) decodeArm(p unsafe.Pointer, in *descInfo, i int) error {
	if in.armPtr[i] {
		return d.decodePtr(unsafe.Add(p, in.armOff[i]), in.arms[i])
	}
	return d.decodeValue(unsafe.Add(p, in.armOff[i]), in.arms[i])
}

// zeroAt resets the value of type rt at p.
func zeroAt(rt reflect.Type, p unsafe.Pointer) { reflect.NewAt(rt, p).Elem().SetZero() }
