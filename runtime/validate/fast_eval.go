package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

type vErr = jsonschema.ValidationError

// maxInPlace bounds chains of $ref and in-place applicators that consume
// no input; beyond it the reference validator decides (it reports loops).
const maxInPlace = 200

// evaluator runs a program over one payload's tape. In the fast mode it
// answers valid or not and stops at the first failure, allocating
// nothing; in the collect mode it builds the reference validator's error
// tree (same locations, messages and nesting), which issuesFrom flattens.
type evaluator struct {
	data     []byte
	tape     []tok
	strBuf   []byte
	keyBuf   []byte
	numBuf   []byte
	numBuf2  []byte
	path     []int32 // tape index of an object key, or -(array index)-1
	bits     []uint64
	undecl   []int32
	members  []member
	inPlace  int
	fallback bool // the reference must decide this payload
	// formats memoises format checks of strings read in place from the
	// payload (so valid until the next reset): payloads repeat URLs.
	formats  map[formatKey]bool
	patterns map[patternKey]bool
}

type formatKey struct{ format, value string }

type patternKey struct {
	pm    *patternMatcher
	value string
}

// patternOK is patternMatcher.MatchString, memoised like formatOK (a
// failure to decide is not memoised).
func (e *evaluator) patternOK(pm *patternMatcher, s string, inPayload bool) (bool, error) {
	if !inPayload || pm.run != nil {
		return pm.MatchString(s)
	}
	k := patternKey{pm, s}
	if ok, seen := e.patterns[k]; seen {
		return ok, nil
	}
	ok, err := pm.MatchString(s)
	if err == nil {
		if e.patterns == nil {
			e.patterns = map[patternKey]bool{}
		}
		e.patterns[k] = ok
	}
	return ok, err
}

func (e *evaluator) formatOK(n *snode, s string, inPayload bool) bool {
	if !inPayload {
		return n.format(s)
	}
	k := formatKey{n.formatName, s}
	if ok, seen := e.formats[k]; seen {
		return ok
	}
	ok := n.format(s)
	if e.formats == nil {
		e.formats = map[formatKey]bool{}
	}
	e.formats[k] = ok
	return ok
}

func (e *evaluator) reset(data []byte, tape []tok) {
	e.data, e.tape = data, tape
	e.path, e.bits, e.undecl, e.members = e.path[:0], e.bits[:0], e.undecl[:0], e.members[:0]
	e.inPlace, e.fallback = 0, false
	clear(e.formats)
	clear(e.patterns)
}

// str returns a string value; the view lives until the next str call.
func (e *evaluator) str(i int32) string {
	t := &e.tape[i]
	raw := e.data[t.start:t.end]
	if !t.escaped {
		return bytesString(raw)
	}
	e.strBuf = unescapeJSON(e.strBuf[:0], raw)
	return bytesString(e.strBuf)
}

// key returns an object key; the view lives until the next key call.
func (e *evaluator) key(i int32) string {
	t := &e.tape[i]
	raw := e.data[t.start:t.end]
	if !t.escaped {
		return bytesString(raw)
	}
	e.keyBuf = unescapeJSON(e.keyBuf[:0], raw)
	return bytesString(e.keyBuf)
}

func (e *evaluator) instLoc() string {
	if len(e.path) == 0 {
		return ""
	}
	var b strings.Builder
	for _, p := range e.path {
		b.WriteByte('/')
		if p < 0 {
			b.WriteString(strconv.Itoa(int(-p - 1)))
		} else {
			t := &e.tape[p]
			raw := e.data[t.start:t.end]
			if t.escaped {
				raw = unescapeJSON(nil, raw)
			}
			b.WriteString(escapeLoc(string(raw)))
		}
	}
	return b.String()
}

func (e *evaluator) newErr(n *snode, kw, msg string) *vErr {
	return &vErr{KeywordLocation: kw, AbsoluteKeywordLocation: n.loc + "/" + kw, InstanceLocation: e.instLoc(), Message: msg}
}

// wrap combines a node's errors as the reference does: one stands alone,
// several hang under a wrapper with an empty message.
func (e *evaluator) wrap(n *snode, errs []*vErr) *vErr {
	if len(errs) == 1 {
		return errs[0]
	}
	return &vErr{AbsoluteKeywordLocation: n.loc, InstanceLocation: e.instLoc(), Causes: errs}
}

// causesOf is the reference's ValidationError.causes: a wrapper's causes
// are adopted, anything else becomes the only cause.
func causesOf(w, err *vErr) *vErr {
	if err.Message == "" {
		w.Causes = err.Causes
	} else {
		w.Causes = []*vErr{err}
	}
	return w
}

func jsonTypeName(k tokKind) string {
	switch k {
	case tNull:
		return "null"
	case tTrue, tFalse:
		return "boolean"
	case tNumber:
		return "number"
	case tString:
		return "string"
	case tArray:
		return "array"
	}
	return "object"
}

func (e *evaluator) typeOK(n *snode, i int32) bool {
	var m typeMask
	switch e.tape[i].kind {
	case tNull:
		m = mNull
	case tTrue, tFalse:
		m = mBool
	case tObject:
		m = mObject
	case tArray:
		m = mArray
	case tString:
		m = mString
	case tNumber:
		if n.types&mNumber != 0 {
			return true
		}
		return n.types&mInteger != 0 && e.isInt(i)
	}
	return n.types&m != 0
}

func (e *evaluator) isInt(i int32) bool {
	t := &e.tape[i]
	lit := e.data[t.start:t.end]
	if !bytes.ContainsAny(lit, ".eE") {
		return true
	}
	return e.dec(i).isInt()
}

func (e *evaluator) dec(i int32) decimal {
	t := &e.tape[i]
	e.numBuf = e.numBuf[:0]
	d := parseDecimal(e.data[t.start:t.end], e.numBuf)
	e.numBuf = d.digits[:0]
	return d
}

// eval validates the value at tape index i against n.
func (e *evaluator) eval(n *snode, i int32, collect bool) (bool, *vErr) {
	if e.fallback {
		return true, nil
	}
	switch n.always {
	case 1:
		return true, nil
	case -1:
		if !collect {
			return false, nil
		}
		return false, &vErr{AbsoluteKeywordLocation: n.loc, InstanceLocation: e.instLoc(), Message: "not allowed"}
	}
	if n.ref != nil {
		if !e.enter() {
			return true, nil
		}
		ok, err := e.eval(n.ref, i, collect)
		e.inPlace--
		if ok || !collect {
			return ok, nil
		}
		return false, causesOf(e.newErr(n, "$ref", "doesn't validate with "+quoteLoc(n.refLoc)), err)
	}
	t := &e.tape[i]
	if n.types != 0 && !e.typeOK(n, i) {
		if !collect {
			return false, nil
		}
		return false, e.newErr(n, "type", fmt.Sprintf("expected %s, but got %s", n.typeMsg, jsonTypeName(t.kind)))
	}
	var errs []*vErr
	fail := func(err *vErr) bool { // reports whether to go on
		if collect {
			errs = append(errs, err)
		}
		return collect
	}
	if n.hasConst && !e.equalsConst(i, &n.constant) {
		if !fail(e.errIf(collect, n, "const", n.constMsg)) {
			return false, nil
		}
	}
	if n.enum != nil && !e.inEnum(n, i) {
		if !fail(e.errIf(collect, n, "enum", n.enumMsg)) {
			return false, nil
		}
	}
	if n.format != nil && t.kind == tString {
		s := e.str(i)
		if !e.formatOK(n, s, !t.escaped) {
			var err *vErr
			if collect {
				err = e.newErr(n, "format", fmt.Sprintf("%v is not valid %s", quote(s), quote(n.formatName)))
			}
			if !fail(err) {
				return false, nil
			}
		}
	}
	switch t.kind {
	case tObject:
		if n.objectWork || len(n.deps) > 0 {
			if !collect {
				if !e.objectFast(n, i) {
					return false, nil
				}
			} else {
				e.object(n, i, collect, &errs)
			}
		}
	case tArray:
		if n.arrayWork {
			if !e.array(n, i, collect, &errs) && !collect {
				return false, nil
			}
		}
	case tString:
		if n.minLen >= 0 || n.maxLen >= 0 {
			l := utf8.RuneCountInString(e.str(i))
			if n.minLen >= 0 && l < n.minLen {
				if !fail(e.errIf(collect, n, "minLength", fmt.Sprintf("length must be >= %d, but got %d", n.minLen, l))) {
					return false, nil
				}
			}
			if n.maxLen >= 0 && l > n.maxLen {
				if !fail(e.errIf(collect, n, "maxLength", fmt.Sprintf("length must be <= %d, but got %d", n.maxLen, l))) {
					return false, nil
				}
			}
		}
	case tNumber:
		if n.numberWork && !e.number(n, i, collect, &errs) && !collect {
			return false, nil
		}
	}
	if n.applies && !e.applicators(n, i, collect, &errs) && !collect {
		return false, nil
	}
	if n.pattern != nil && t.kind == tString {
		matched, merr := e.patternOK(n.pattern, e.str(i), !t.escaped)
		if !matched {
			var err *vErr
			if collect {
				msg := fmt.Sprintf("must match pattern \"%s\"", n.pattern.re.source)
				if merr != nil {
					msg = fmt.Sprintf("could not check pattern \"%s\": %v", n.pattern.re.source, merr)
				}
				err = e.newErr(n, "pattern", msg)
			}
			if !fail(err) {
				return false, nil
			}
		}
	}
	if len(errs) == 0 {
		return true, nil
	}
	return false, e.wrap(n, errs)
}

// errIf builds an error only when collecting.
func (e *evaluator) errIf(collect bool, n *snode, kw, msg string) *vErr {
	if !collect {
		return nil
	}
	return e.newErr(n, kw, msg)
}

func (e *evaluator) enter() bool {
	if e.inPlace++; e.inPlace > maxInPlace {
		e.fallback = true
		e.inPlace--
		return false
	}
	return true
}

// inPlaceEval runs a sub-schema on the same value (allOf, anyOf, oneOf,
// not, if, dependencies).
func (e *evaluator) inPlaceEval(n *snode, i int32, collect bool) (bool, *vErr) {
	if !e.enter() {
		return true, nil
	}
	ok, err := e.eval(n, i, collect)
	e.inPlace--
	return ok, err
}

func (e *evaluator) applicators(n *snode, i int32, collect bool, errs *[]*vErr) bool {
	ok := true
	if n.not != nil {
		if pass, _ := e.inPlaceEval(n.not, i, false); pass && !e.fallback {
			if !collect {
				return false
			}
			ok = false
			*errs = append(*errs, e.newErr(n, "not", "not failed"))
		}
	}
	for k, s := range n.allOf {
		pass, err := e.inPlaceEval(s, i, collect)
		if !pass {
			if !collect {
				return false
			}
			ok = false
			w := e.newErr(n, "allOf/"+strconv.Itoa(k), "allOf failed")
			w.Causes = []*vErr{err}
			*errs = append(*errs, w)
		}
	}
	if len(n.anyOf) > 0 {
		matched := false
		disc, hasDisc := "", false
		if n.anyOfDisc != nil && e.tape[i].kind == tObject {
			disc, hasDisc = e.discValue(n.anyOfDisc, i)
		}
		for k, s := range n.anyOf {
			if hasDisc && n.anyOfDisc.skip(k, disc) {
				continue
			}
			if pass, _ := e.inPlaceEval(s, i, false); pass {
				matched = true
				break
			}
		}
		if !matched {
			if !collect {
				return false
			}
			ok = false
			w := e.newErr(n, "anyOf", "anyOf failed")
			for _, s := range n.anyOf {
				if _, err := e.inPlaceEval(s, i, true); err != nil {
					w.Causes = append(w.Causes, err)
				}
			}
			*errs = append(*errs, w)
		}
	}
	if len(n.oneOf) > 0 {
		first, second := -1, -1
		disc, hasDisc := "", false
		if n.oneOfDisc != nil && e.tape[i].kind == tObject {
			disc, hasDisc = e.discValue(n.oneOfDisc, i)
		}
		for k, s := range n.oneOf {
			if hasDisc && n.oneOfDisc.skip(k, disc) {
				continue
			}
			if pass, _ := e.inPlaceEval(s, i, false); pass {
				if first < 0 {
					first = k
				} else {
					second = k
					break
				}
			}
		}
		switch {
		case second >= 0:
			if !collect {
				return false
			}
			ok = false
			*errs = append(*errs, e.newErr(n, "oneOf", fmt.Sprintf("valid against schemas at indexes %d and %d", first, second)))
		case first < 0:
			if !collect {
				return false
			}
			ok = false
			w := e.newErr(n, "oneOf", "oneOf failed")
			for _, s := range n.oneOf {
				if _, err := e.inPlaceEval(s, i, true); err != nil {
					w.Causes = append(w.Causes, err)
				}
			}
			*errs = append(*errs, w)
		}
	}
	if n.hasIf {
		pass, _ := e.inPlaceEval(n.ifS, i, false)
		branch, kw, msg := n.thenS, "then", "if-then failed"
		if !pass {
			branch, kw, msg = n.elseS, "else", "if-else failed"
		}
		if branch != nil {
			if p, err := e.inPlaceEval(branch, i, collect); !p {
				if !collect {
					return false
				}
				ok = false
				w := e.newErr(n, kw, msg)
				w.Causes = []*vErr{err}
				*errs = append(*errs, w)
			}
		}
	}
	return ok
}

func (e *evaluator) number(n *snode, i int32, collect bool, errs *[]*vErr) bool {
	var d decimal
	parsed := false
	t := &e.tape[i]
	lit := e.data[t.start:t.end]
	ok := true
	checks := [4]struct {
		b      *bound
		kw, op string
	}{{n.minimum, "minimum", ">="}, {n.exclusiveMin, "exclusiveMinimum", ">"}, {n.maximum, "maximum", "<="}, {n.exclusiveMax, "exclusiveMaximum", "<"}}
	for k := range checks {
		b := checks[k].b
		if b == nil {
			continue
		}
		var c int
		if b.dec.isZero() {
			c = literalSign(lit)
		} else {
			if !parsed {
				d, parsed = e.dec(i), true
			}
			c = cmpDecimal(d, b.dec)
		}
		var bad bool
		switch k {
		case 0:
			bad = c < 0
		case 1:
			bad = c <= 0
		case 2:
			bad = c > 0
		default:
			bad = c >= 0
		}
		if !bad {
			continue
		}
		if !collect {
			return false
		}
		ok = false
		*errs = append(*errs, e.newErr(n, checks[k].kw, fmt.Sprintf("must be %s %v but found %v", checks[k].op, b.f64, e.literal(i))))
	}
	if n.multipleOf != nil {
		r, _ := new(big.Rat).SetString(e.literal(i))
		if q := new(big.Rat).Quo(r, n.multipleOf); !q.IsInt() {
			if !collect {
				return false
			}
			ok = false
			*errs = append(*errs, e.newErr(n, "multipleOf", fmt.Sprintf("%v not multipleOf %v", e.literal(i), n.multipleOfF)))
		}
	}
	return ok
}

func (e *evaluator) literal(i int32) string {
	t := &e.tape[i]
	return string(e.data[t.start:t.end])
}

// quote is the reference's single-quoted spelling of a name.
func quote(s string) string {
	s = fmt.Sprintf("%q", s)
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s[1:len(s)-1] + "'"
}

// quoteLoc names a $ref target as the reference does in wrapper messages.
func quoteLoc(loc string) string { return quote(loc) }

// decodeValue decodes the payload value at i for comparisons with
// object and array constants.
func (e *evaluator) decodeValue(i int32) any {
	t := &e.tape[i]
	dec := json.NewDecoder(bytes.NewReader(e.data[t.start:t.end]))
	dec.UseNumber()
	var v any
	if t.kind == tString || t.kind == tNumber {
		return nil // not called for scalars
	}
	_ = dec.Decode(&v)
	return v
}
