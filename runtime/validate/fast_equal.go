package validate

import (
	"encoding/json"
	"hash/maphash"
	"math/big"
)

// JSON value equality as the reference defines it: numbers by exact
// value, objects by their members whatever the order.

func (e *evaluator) equalsConst(i int32, c *constVal) bool {
	t := &e.tape[i]
	switch c.kind {
	case tNull, tTrue, tFalse:
		return t.kind == c.kind
	case tString:
		return t.kind == tString && e.str(i) == c.str
	case tNumber:
		return t.kind == tNumber && cmpDecimal(e.dec(i), c.num) == 0
	case tArray, tObject:
		if t.kind != c.kind {
			return false
		}
		return equalAny(e.decodeValue(i), c.any)
	}
	return false
}

func (e *evaluator) inEnum(n *snode, i int32) bool {
	if n.enumStr != nil {
		return e.tape[i].kind == tString && n.enumStr[e.str(i)]
	}
	for k := range n.enum {
		if e.equalsConst(i, &n.enum[k]) {
			return true
		}
	}
	return false
}

// equalAny is the reference's equality of decoded JSON values.
func equalAny(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, ok1 := new(big.Rat).SetString(string(a))
		y, ok2 := new(big.Rat).SetString(string(bn))
		return ok1 && ok2 && x.Cmp(y) == 0
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !equalAny(a[i], bl[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			w, ok := bm[k]
			if !ok || !equalAny(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// tapeEqual compares two payload values. Objects holding a duplicate key
// hand the payload to the reference (fallback), which keeps the last.
func (e *evaluator) tapeEqual(a, b int32) bool {
	ta, tb := &e.tape[a], &e.tape[b]
	if ta.kind != tb.kind {
		return false
	}
	switch ta.kind {
	case tNull, tTrue, tFalse:
		return true
	case tString:
		return e.stringsEqual(a, b)
	case tNumber:
		e.numBuf = e.numBuf[:0]
		da := parseDecimal(e.data[ta.start:ta.end], e.numBuf)
		e.numBuf2 = e.numBuf2[:0]
		db := parseDecimal(e.data[tb.start:tb.end], e.numBuf2)
		e.numBuf, e.numBuf2 = da.digits[:0], db.digits[:0]
		return cmpDecimal(da, db) == 0
	case tArray:
		if ta.n != tb.n {
			return false
		}
		x, y := a+1, b+1
		for k := int32(0); k < ta.n; k++ {
			if !e.tapeEqual(x, y) {
				return false
			}
			x, y = e.tape[x].next, e.tape[y].next
		}
		return true
	}
	if e.objectHasDuplicate(a) || e.objectHasDuplicate(b) {
		e.fallback = true
		return false
	}
	if ta.n != tb.n {
		return false
	}
	x := a + 1
	for k := int32(0); k < ta.n; k++ {
		found := false
		y := b + 1
		for l := int32(0); l < tb.n; l++ {
			if e.stringsEqual(x, y) {
				if !e.tapeEqual(x+1, y+1) {
					return false
				}
				found = true
				break
			}
			y = e.tape[y+1].next
		}
		if !found {
			return false
		}
		x = e.tape[x+1].next
	}
	return true
}

func (e *evaluator) objectHasDuplicate(i int32) bool {
	t := &e.tape[i]
	if t.n < 2 {
		return false
	}
	base := len(e.undecl)
	j := i + 1
	for k := int32(0); k < t.n; k++ {
		e.undecl = append(e.undecl, j)
		j = e.tape[j+1].next
	}
	dup := e.hasDuplicate(e.undecl[base:])
	e.undecl = e.undecl[:base]
	return dup
}

var hashSeed = maphash.MakeSeed()

// duplicateItems finds the first pair of equal items (j < i, smallest i),
// as the reference reports it.
func (e *evaluator) duplicateItems(arr int32) (int, int, bool) {
	t := &e.tape[arr]
	count := int(t.n)
	if count <= 20 {
		var idx [20]int32
		j := arr + 1
		for k := 0; k < count; k++ {
			idx[k] = j
			j = e.tape[j].next
		}
		for a := 1; a < count; a++ {
			for b := 0; b < a; b++ {
				if e.tapeEqual(idx[a], idx[b]) {
					return b, a, true
				}
				if e.fallback {
					return 0, 0, false
				}
			}
		}
		return 0, 0, false
	}
	type entry struct {
		tok  int32
		item int
	}
	buckets := make(map[uint64][]entry, count)
	j := arr + 1
	for k := 0; k < count; k++ {
		var h maphash.Hash
		h.SetSeed(hashSeed)
		e.hashValue(j, &h)
		if e.fallback {
			return 0, 0, false
		}
		sum := h.Sum64()
		for _, prev := range buckets[sum] {
			if e.tapeEqual(prev.tok, j) {
				return prev.item, k, true
			}
		}
		buckets[sum] = append(buckets[sum], entry{j, k})
		j = e.tape[j].next
	}
	return 0, 0, false
}

// hashValue hashes a value so that equal values hash alike.
func (e *evaluator) hashValue(i int32, h *maphash.Hash) {
	t := &e.tape[i]
	h.WriteByte(byte(t.kind))
	switch t.kind {
	case tString:
		h.WriteString(e.str(i))
	case tNumber:
		d := e.dec(i)
		if d.neg {
			h.WriteByte('-')
		}
		h.Write(d.digits)
		var x [8]byte
		for k := range x {
			x[k] = byte(uint(d.exp) >> (8 * k))
		}
		h.Write(x[:])
	case tArray:
		j := i + 1
		for k := int32(0); k < t.n; k++ {
			e.hashValue(j, h)
			j = e.tape[j].next
		}
	case tObject:
		if e.objectHasDuplicate(i) {
			e.fallback = true
			return
		}
		var sum uint64 // order-independent
		j := i + 1
		for k := int32(0); k < t.n; k++ {
			var mh maphash.Hash
			mh.SetSeed(hashSeed)
			mh.WriteString(e.key(j))
			e.hashValue(j+1, &mh)
			sum += mh.Sum64()
			j = e.tape[j+1].next
		}
		var x [8]byte
		for k := range x {
			x[k] = byte(sum >> (8 * k))
		}
		h.Write(x[:])
	}
}
