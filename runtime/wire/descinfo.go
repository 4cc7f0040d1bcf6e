package wire

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/adcpgen/adcpgen/runtime/internal/wiredesc"
)

// descInfo is what the engine derives from a Desc on first use.
type descInfo struct {
	rt   reflect.Type // the described Go type (nil for scalars)
	size uintptr
	// late: the Desc a ShapeLate one stands for.
	late *wiredesc.Desc
	// ShapeSlice, ShapeMap: how the Go value is built.
	native nativeKind
	elem   *wiredesc.Desc // Elem, resolved
	// ShapeStruct.
	members  []memberInfo
	table    []uint16 // key hash table: member index + 1, 0 empty
	shift    uint32
	words    int // seen-set words
	required *required
	declared keySet    // every declared key (patterns, extra members)
	offs     []uintptr // KeyPatterns' fields, then Extra's
	// ShapeUnion: arm field offsets and which arms are pointers.
	armOff []uintptr
	armPtr []bool
	arms   []*wiredesc.Desc
}

// memberInfo is a struct member as the engine walks it.
type memberInfo struct {
	off      uintptr
	key      string // `"name":`
	name     string
	desc     *wiredesc.Desc // resolved
	ptr      bool
	required bool
	fixed    bool
}

// nativeKind marks slices and maps of the builtin scalars, which the
// engine builds with ordinary Go code instead of reflection.
type nativeKind uint8

const (
	nativeNone nativeKind = iota
	nativeString
	nativeInt
	nativeFloat
	nativeBool
	nativeRaw
)

var (
	typeString = reflect.TypeFor[string]()
	typeInt    = reflect.TypeFor[int64]()
	typeFloat  = reflect.TypeFor[float64]()
	typeBool   = reflect.TypeFor[bool]()
	typeRaw    = reflect.TypeFor[json.RawMessage]()
)

// target is t, or for ShapeLate the Desc it stands for.
func target(t *wiredesc.Desc) *wiredesc.Desc {
	if t.Shape != wiredesc.ShapeLate {
		return t
	}
	return infos(t).late
}

// infos returns t's derived information, computing it on first use.
// Concurrent first uses compute the same value; one is kept. It lives in
// t's cache slot, which holds nothing but a *descInfo.
func infos(t *wiredesc.Desc) *descInfo {
	c := t.Cache()
	if in := c.Load(); in != nil {
		return (*descInfo)(unsafe.Pointer(in))
	}
	c.CompareAndSwap(nil, (*wiredesc.Cache)(unsafe.Pointer(build(t))))
	return (*descInfo)(unsafe.Pointer(c.Load()))
}

// sizeOf is the size of a value of t's type.
func sizeOf(t *wiredesc.Desc) uintptr { return infos(target(t)).size }

func build(t *wiredesc.Desc) *descInfo {
	in := &descInfo{}
	if t.Go != nil {
		pt := reflect.TypeOf(t.Go)
		if pt.Kind() != reflect.Pointer {
			panic("wire: Desc.Go of " + t.Name + " is not a pointer")
		}
		in.rt = pt.Elem()
		in.size = in.rt.Size()
	}
	switch t.Shape {
	case wiredesc.ShapeString:
		in.size = unsafe.Sizeof("")
	case wiredesc.ShapeInt:
		in.size = 8
	case wiredesc.ShapeFloat:
		in.size = 8
	case wiredesc.ShapeBool:
		in.size = 1
	case wiredesc.ShapeRaw:
		in.size = unsafe.Sizeof(json.RawMessage(nil))
	case wiredesc.ShapeLate:
		in.late = resolveLate(t)
		in.size = in.rt.Size()
	case wiredesc.ShapeSlice, wiredesc.ShapeMap:
		needGo(t)
		in.elem = target(t.Elem)
		in.native = nativeOf(in.rt.Elem())
	case wiredesc.ShapeNullable:
		needGo(t)
		in.elem = target(t.Elem)
	case wiredesc.ShapeStruct:
		needGo(t)
		buildStruct(t, in)
	case wiredesc.ShapeUnion:
		needGo(t)
		if in.rt.NumField() != len(t.Union.Arms) {
			panic("wire: union " + t.Name + " has " + strconv.Itoa(in.rt.NumField()) + " fields and " + strconv.Itoa(len(t.Union.Arms)) + " arms")
		}
		for i, a := range t.Union.Arms {
			f := in.rt.Field(i)
			in.armOff = append(in.armOff, f.Offset)
			in.armPtr = append(in.armPtr, f.Type.Kind() == reflect.Pointer)
			in.arms = append(in.arms, target(a.Desc))
		}
	default:
		panic("wire: Desc " + t.Name + " has no shape")
	}
	return in
}

func needGo(t *wiredesc.Desc) {
	if t.Go == nil {
		panic("wire: Desc " + t.Name + " of a composite type has no Go type")
	}
}

// nativeOf tells the element types the engine handles without reflection.
func nativeOf(elem reflect.Type) nativeKind {
	switch elem {
	case typeString:
		return nativeString
	case typeInt:
		return nativeInt
	case typeFloat:
		return nativeFloat
	case typeBool:
		return nativeBool
	case typeRaw:
		return nativeRaw
	}
	return nativeNone
}

// resolveLate asks the generated type t.Go names for its Desc.
func resolveLate(t *wiredesc.Desc) *wiredesc.Desc {
	v, ok := t.Go.(Value)
	if !ok {
		panic("wire: late Desc names a type without WireDesc")
	}
	return v.WireDesc()
}

func buildStruct(t *wiredesc.Desc, in *descInfo) {
	rt := in.rt
	field := 0
	nextField := func(what string) reflect.StructField {
		if field >= rt.NumField() {
			panic("wire: struct " + t.Name + " has no Go field for " + what)
		}
		f := rt.Field(field)
		field++
		return f
	}
	var reqBits []int
	var reqNames []string
	for i, m := range t.Members {
		mi := memberInfo{name: m.Name, key: string(appendQuoted(nil, m.Name)) + ":", desc: target(m.Desc), required: m.Required, fixed: m.Fixed}
		if !m.Fixed {
			f := nextField(m.Name)
			if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != m.Name {
				panic("wire: struct " + t.Name + " field " + f.Name + " is tagged " + strconv.Quote(tag) + ", want " + strconv.Quote(m.Name))
			}
			mi.off = f.Offset
			mi.ptr = f.Type.Kind() == reflect.Pointer
		}
		if m.Required {
			reqBits = append(reqBits, i)
			reqNames = append(reqNames, m.Name)
		}
		in.members = append(in.members, mi)
	}
	for range t.KeyPatterns {
		in.offs = append(in.offs, nextField("a key pattern").Offset)
	}
	if t.Extra != wiredesc.ExtraReject {
		in.offs = append(in.offs, nextField("extra members").Offset)
	}
	if field != rt.NumField() {
		panic("wire: struct " + t.Name + " has more Go fields than its Desc describes")
	}
	in.words = (len(t.Members) + 63) / 64
	if len(reqBits) > 0 {
		in.required = newRequired(in.words, reqBits, reqNames)
	}
	if len(t.KeyPatterns) > 0 || t.Extra != wiredesc.ExtraReject {
		in.declared = make(keySet, len(t.Members))
		for _, m := range t.Members {
			in.declared[m.Name] = struct{}{}
		}
	}
	in.buildTable()
}

// The key table is open addressing over a hash of a key's length and a
// few of its bytes; a hit is confirmed by comparing the whole key.
func keyHash(k []byte) uint32 {
	n := len(k)
	h := uint32(n) * 0x9E3779B1
	if n > 0 {
		h ^= uint32(k[0]) | uint32(k[n-1])<<8 | uint32(k[n/2])<<16 | uint32(k[n/3])<<24
	}
	return h * 0x85EBCA77
}

func (in *descInfo) buildTable() {
	size := 4
	for size < 2*len(in.members) {
		size *= 2
	}
	bits := uint32(0)
	for 1<<bits < size {
		bits++
	}
	in.shift = 32 - bits
	in.table = make([]uint16, size)
	mask := uint32(size - 1)
	for i, m := range in.members {
		h := keyHash([]byte(m.name)) >> in.shift
		for in.table[h] != 0 {
			h = (h + 1) & mask
		}
		in.table[h] = uint16(i + 1)
	}
}

// lookup returns the index of the member named key, or -1.
func (in *descInfo) lookup(key []byte) int {
	mask := uint32(len(in.table) - 1)
	for h := keyHash(key) >> in.shift; ; h = (h + 1) & mask {
		i := in.table[h]
		if i == 0 {
			return -1
		}
		if in.members[i-1].name == string(key) {
			return int(i - 1)
		}
	}
}
