package wire

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"unsafe"

	"github.com/adcpgen/adcpgen/runtime/internal/wiredesc"
)

// encodeTop writes v, a non-nil pointer to a generated type, as its Desc
// says.
func (e *Encoder) encodeTop(v Value) {
	e.encodeValue(reflect.ValueOf(v).UnsafePointer(), v.WireDesc())
}

func (e *Encoder) encodeValue(p unsafe.Pointer, t *wiredesc.Desc) {
	switch t.Shape {
	case wiredesc.ShapeString:
		e.String(*(*string)(p))
	case wiredesc.ShapeInt:
		e.Int(*(*int64)(p))
	case wiredesc.ShapeFloat:
		e.Float(*(*float64)(p))
	case wiredesc.ShapeBool:
		e.Bool(*(*bool)(p))
	case wiredesc.ShapeRaw:
		e.Raw(*(*json.RawMessage)(p))
	case wiredesc.ShapeStruct:
		e.encodeStruct(p, t)
	case wiredesc.ShapeUnion:
		e.encodeUnion(p, t)
	case wiredesc.ShapeSlice:
		in := infos(t)
		h := (*sliceHeader)(p)
		size := sizeOf(in.elem)
		e.ArrayStart()
		for i := 0; i < h.len; i++ {
			e.encodeValue(unsafe.Add(h.data, uintptr(i)*size), in.elem)
			if e.err != nil {
				e.failedUnder(strconv.Itoa(i))
				return
			}
		}
		e.ArrayEnd()
	case wiredesc.ShapeMap:
		e.ObjectStart()
		e.encodeMembers(p, t, nil)
		e.ObjectEnd()
	case wiredesc.ShapeNullable:
		in := infos(t)
		if *(*uint8)(unsafe.Add(p, sizeOf(in.elem))) == 2 {
			e.encodeValue(p, in.elem)
		} else {
			e.Null()
		}
	case wiredesc.ShapeLate:
		e.encodeValue(p, target(t))
	default:
		panic("wire: Desc " + t.Name + " has no shape")
	}
}

// absent reports an optional member held by value that is not there: a
// nil slice, map or raw value, an absent Nullable, a union with no arm.
func absent(p unsafe.Pointer, t *wiredesc.Desc) bool {
	switch t.Shape {
	case wiredesc.ShapeSlice, wiredesc.ShapeRaw:
		return (*sliceHeader)(p).data == nil
	case wiredesc.ShapeMap:
		return *(*unsafe.Pointer)(p) == nil
	case wiredesc.ShapeNullable:
		return *(*uint8)(unsafe.Add(p, sizeOf(infos(t).elem))) == 0
	case wiredesc.ShapeUnion:
		return armsSet(p, infos(t)) == 0
	case wiredesc.ShapeLate:
		return absent(p, target(t))
	}
	return false
}

func (e *Encoder) encodeStruct(p unsafe.Pointer, t *wiredesc.Desc) {
	in := infos(t)
	e.ObjectStart()
	for i := range in.members {
		m := &in.members[i]
		if m.fixed {
			e.rawKey(m.key)
			e.Literal(m.desc.Const)
			continue
		}
		fp := unsafe.Add(p, m.off)
		switch {
		case m.ptr:
			q := *(*unsafe.Pointer)(fp)
			if q == nil {
				if m.required {
					e.fail(missingOnEncode(t.Name, m.name))
					return
				}
				continue
			}
			fp = q
		case !m.required && absent(fp, m.desc):
			continue
		}
		e.rawKey(m.key)
		e.encodeValue(fp, m.desc)
		if e.err != nil {
			e.failedUnder(m.name)
			return
		}
	}
	for i, kp := range t.KeyPatterns {
		if e.encodeMembers(unsafe.Add(p, in.offs[i]), kp.Map, in.declared); e.err != nil {
			return
		}
	}
	switch t.Extra {
	case wiredesc.ExtraKeep:
		writeMembers(e, *(*map[string]json.RawMessage)(unsafe.Add(p, in.offs[len(t.KeyPatterns)])), in.declared, writeRaw)
	case wiredesc.ExtraTyped:
		e.encodeMembers(unsafe.Add(p, in.offs[len(t.KeyPatterns)]), t.ExtraMap, in.declared)
	}
	e.ObjectEnd()
}

// encodeMembers writes the entries of the map at p (of type t) as members,
// in key order, refusing declared and forbidden keys (see WriteMembers).
func (e *Encoder) encodeMembers(p unsafe.Pointer, t *wiredesc.Desc, declared keySet) {
	in := infos(t)
	switch in.native {
	case nativeRaw:
		writeMembers(e, *(*map[string]json.RawMessage)(p), declared, writeRaw)
		return
	case nativeString:
		writeMembers(e, *(*map[string]string)(p), declared, writeString)
		return
	case nativeInt:
		writeMembers(e, *(*map[string]int64)(p), declared, writeInt)
		return
	case nativeFloat:
		writeMembers(e, *(*map[string]float64)(p), declared, writeFloat)
		return
	case nativeBool:
		writeMembers(e, *(*map[string]bool)(p), declared, writeBool)
		return
	}
	m := reflect.NewAt(in.rt, p).Elem()
	if m.Len() == 0 {
		return
	}
	keys := make([]string, 0, m.Len())
	for it := m.MapRange(); it.Next(); {
		keys = append(keys, it.Key().String())
	}
	slices.Sort(keys)
	kv := reflect.New(typeString).Elem()
	for _, k := range keys {
		if e.memberKeyOK(k, declared) {
			e.Key(k)
			kv.SetString(k)
			v := reflect.New(in.rt.Elem()).Elem()
			v.Set(m.MapIndex(kv))
			e.encodeValue(v.Addr().UnsafePointer(), in.elem)
		}
		if e.err != nil {
			e.failedUnder(k)
			return
		}
	}
}

// armsSet counts the arms of the union at p that are set.
func armsSet(p unsafe.Pointer, in *descInfo) int {
	n := 0
	for i := range in.armOff {
		if armSet(p, in, i) {
			n++
		}
	}
	return n
}

func armSet(p unsafe.Pointer, in *descInfo, i int) bool {
	fp := unsafe.Add(p, in.armOff[i])
	if in.armPtr[i] {
		return *(*unsafe.Pointer)(fp) != nil
	}
	return !absent(fp, in.arms[i])
}

func (e *Encoder) encodeUnion(p unsafe.Pointer, t *wiredesc.Desc) {
	in := infos(t)
	if n := armsSet(p, in); n != 1 {
		e.fail(variantCount(t.Union.Name, n))
		e.Null()
		return
	}
	for i := range in.armOff {
		if !armSet(p, in, i) {
			continue
		}
		fp := unsafe.Add(p, in.armOff[i])
		if in.armPtr[i] {
			fp = *(*unsafe.Pointer)(fp)
		}
		e.encodeValue(fp, in.arms[i])
		return
	}
}
