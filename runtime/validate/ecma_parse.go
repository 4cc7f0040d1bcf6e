package validate

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file parses ECMA-262 regular expressions (the dialect JSON Schema's
// `pattern` uses) into a small AST. The AST is either emitted as RE2 syntax
// (when it holds nothing RE2 lacks) or run by the backtracking matcher in
// ecma_match.go (lookarounds, back-references).
//
// Matching is over code points, as with the `u` flag most validators use;
// `\uXXXX` surrogate pairs are joined into one code point. The syntax
// accepted is the web-compatible one (Annex B): a `{` that does not start a
// quantifier, a lone `]` or `}`, and identity escapes such as `\-` are literals.

type nodeKind uint8

const (
	nLit      nodeKind = iota // r
	nClass                    // ranges, negate
	nConcat                   // subs
	nAlt                      // subs
	nGroup                    // sub; capture index > 0 when capturing
	nRepeat                   // sub, min, max (-1: unbounded), lazy
	nBegin                    // ^
	nEnd                      // $
	nWordB                    // \b
	nNotWordB                 // \B
	nLook                     // sub; ahead/behind, negate
	nBackref                  // capture index
)

type runeRange struct{ lo, hi rune }

type node struct {
	kind    nodeKind
	r       rune
	ranges  []runeRange
	negate  bool
	subs    []*node
	sub     *node
	capture int
	min     int
	max     int
	lazy    bool
	behind  bool
}

// Character sets with ECMA-262 meaning.
var (
	ecmaDigit = []runeRange{{'0', '9'}}
	ecmaWord  = []runeRange{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	// WhiteSpace and LineTerminator code points (ECMA-262 §22.2.2.9, \s).
	ecmaSpace = []runeRange{
		{'\t', '\r'}, {' ', ' '}, {0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A},
		{0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF},
	}
	// `.` matches anything but a LineTerminator.
	ecmaLineTerminators = []runeRange{{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}}
)

type ecmaAST struct {
	root      *node
	groups    int
	needsBT   bool // lookaround or back-reference: RE2 cannot express it
	maxRepeat int  // largest explicit repeat count
}

type ecmaParser struct {
	src    string
	pos    int
	groups int
	bt     bool
	maxRep int
	depth  int
}

// maxRegexNesting bounds group nesting so a hostile schema cannot overflow
// the parser's stack.
const maxRegexNesting = 200

func parseECMA(src string) (*ecmaAST, error) {
	if !utf8.ValidString(src) {
		return nil, fmt.Errorf("pattern is not valid UTF-8")
	}
	p := &ecmaParser{src: src}
	root, err := p.alternation()
	if err != nil {
		return nil, err
	}
	if p.pos < len(src) {
		// Only an unbalanced ')' stops alternation early.
		return nil, p.errorf("unmatched ')'")
	}
	return &ecmaAST{root: root, groups: p.groups, needsBT: p.bt, maxRepeat: p.maxRep}, nil
}

func (p *ecmaParser) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *ecmaParser) eof() bool { return p.pos >= len(p.src) }

func (p *ecmaParser) peek() rune {
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return r
}

func (p *ecmaParser) next() rune {
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	return r
}

func (p *ecmaParser) alternation() (*node, error) {
	var alts []*node
	for {
		c, err := p.concat()
		if err != nil {
			return nil, err
		}
		alts = append(alts, c)
		if p.eof() || p.peek() != '|' {
			break
		}
		p.pos++
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &node{kind: nAlt, subs: alts}, nil
}

func (p *ecmaParser) concat() (*node, error) {
	var items []*node
	for !p.eof() {
		c := p.peek()
		if c == '|' || c == ')' {
			break
		}
		atom, err := p.atom()
		if err != nil {
			return nil, err
		}
		atom, err = p.quantifier(atom)
		if err != nil {
			return nil, err
		}
		items = append(items, atom)
	}
	if len(items) == 1 {
		return items[0], nil
	}
	return &node{kind: nConcat, subs: items}, nil
}

func (p *ecmaParser) atom() (*node, error) {
	start := p.pos
	switch c := p.next(); c {
	case '^':
		return &node{kind: nBegin}, nil
	case '$':
		return &node{kind: nEnd}, nil
	case '.':
		return &node{kind: nClass, ranges: ecmaLineTerminators, negate: true}, nil
	case '(':
		return p.group()
	case '[':
		return p.class()
	case '\\':
		return p.atomEscape()
	case '*', '+', '?':
		p.pos = start
		return nil, p.errorf("nothing to repeat")
	case '{':
		if _, _, ok := p.braceQuantifier(start); ok {
			p.pos = start
			return nil, p.errorf("nothing to repeat")
		}
		p.pos = start + 1
		return &node{kind: nLit, r: '{'}, nil
	default:
		return &node{kind: nLit, r: c}, nil
	}
}

func (p *ecmaParser) group() (*node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxRegexNesting {
		return nil, p.errorf("groups nested deeper than %d", maxRegexNesting)
	}
	n := &node{kind: nGroup}
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, "?:"):
		p.pos += 2
	case strings.HasPrefix(rest, "?="), strings.HasPrefix(rest, "?!"):
		n = &node{kind: nLook, negate: rest[1] == '!'}
		p.pos += 2
		p.bt = true
	case strings.HasPrefix(rest, "?<="), strings.HasPrefix(rest, "?<!"):
		n = &node{kind: nLook, behind: true, negate: rest[2] == '!'}
		p.pos += 3
		p.bt = true
	case strings.HasPrefix(rest, "?<"):
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return nil, p.errorf("unterminated group name")
		}
		p.pos += end + 1
		p.groups++
		n.capture = p.groups
	case strings.HasPrefix(rest, "?"):
		return nil, p.errorf("invalid group")
	default:
		p.groups++
		n.capture = p.groups
	}
	sub, err := p.alternation()
	if err != nil {
		return nil, err
	}
	if p.eof() || p.peek() != ')' {
		return nil, p.errorf("missing ')'")
	}
	p.pos++
	n.sub = sub
	return n, nil
}

// braceQuantifier parses {n}, {n,} or {n,m} starting at the '{' at start.
func (p *ecmaParser) braceQuantifier(start int) (min, max int, ok bool) {
	rest := p.src[start:]
	end := strings.IndexByte(rest, '}')
	if end < 0 {
		return 0, 0, false
	}
	body := rest[1:end]
	lo, hi, comma := strings.Cut(body, ",")
	if !isDigits(lo) {
		return 0, 0, false
	}
	min = atoiSat(lo)
	max = min
	if comma {
		switch {
		case hi == "":
			max = -1
		case isDigits(hi):
			max = atoiSat(hi)
		default:
			return 0, 0, false
		}
	}
	p.pos = start + end + 1
	return min, max, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// atoiSat parses digits, saturating at a large bound instead of overflowing.
func atoiSat(s string) int {
	const limit = 1 << 30
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n > limit {
			return limit
		}
	}
	return n
}

func (p *ecmaParser) quantifier(atom *node) (*node, error) {
	if p.eof() {
		return atom, nil
	}
	start := p.pos
	var min, max int
	switch p.peek() {
	case '*':
		p.pos++
		min, max = 0, -1
	case '+':
		p.pos++
		min, max = 1, -1
	case '?':
		p.pos++
		min, max = 0, 1
	case '{':
		var ok bool
		if min, max, ok = p.braceQuantifier(start); !ok {
			return atom, nil // a literal '{', read by the next atom
		}
		if max >= 0 && max < min {
			return nil, p.errorf("numbers out of order in {} quantifier")
		}
		p.maxRep = maxInt(p.maxRep, maxInt(min, max))
	default:
		return atom, nil
	}
	switch atom.kind {
	case nBegin, nEnd, nWordB, nNotWordB:
		p.pos = start
		return nil, p.errorf("nothing to repeat")
	case nLook:
		if atom.behind {
			p.pos = start
			return nil, p.errorf("nothing to repeat")
		}
	}
	lazy := false
	if !p.eof() && p.peek() == '?' {
		p.pos++
		lazy = true
	}
	if !p.eof() {
		switch p.peek() {
		case '*', '+', '?':
			return nil, p.errorf("nothing to repeat")
		}
	}
	return &node{kind: nRepeat, sub: atom, min: min, max: max, lazy: lazy}, nil
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// atomEscape reads what follows a backslash outside a class.
func (p *ecmaParser) atomEscape() (*node, error) {
	if p.eof() {
		return nil, p.errorf(`pattern ends with '\'`)
	}
	c := p.peek()
	switch c {
	case 'b':
		p.pos++
		return &node{kind: nWordB}, nil
	case 'B':
		p.pos++
		return &node{kind: nNotWordB}, nil
	}
	if c >= '1' && c <= '9' {
		startDigits := p.pos
		for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
			p.pos++
		}
		n := atoiSat(p.src[startDigits:p.pos])
		p.bt = true
		return &node{kind: nBackref, capture: n}, nil
	}
	if ranges, negate, ok := p.classEscape(); ok {
		return &node{kind: nClass, ranges: ranges, negate: negate}, nil
	}
	r, err := p.characterEscape(false)
	if err != nil {
		return nil, err
	}
	return &node{kind: nLit, r: r}, nil
}

// classEscape reads \d \D \w \W \s \S.
func (p *ecmaParser) classEscape() (ranges []runeRange, negate, ok bool) {
	switch p.peek() {
	case 'd':
		ranges = ecmaDigit
	case 'D':
		ranges, negate = ecmaDigit, true
	case 'w':
		ranges = ecmaWord
	case 'W':
		ranges, negate = ecmaWord, true
	case 's':
		ranges = ecmaSpace
	case 'S':
		ranges, negate = ecmaSpace, true
	default:
		return nil, false, false
	}
	p.pos++
	return ranges, negate, true
}

// characterEscape reads a single-character escape (after the backslash).
func (p *ecmaParser) characterEscape(inClass bool) (rune, error) {
	c := p.next()
	switch c {
	case 't':
		return '\t', nil
	case 'n':
		return '\n', nil
	case 'v':
		return '\v', nil
	case 'f':
		return '\f', nil
	case 'r':
		return '\r', nil
	case 'b':
		if inClass {
			return '\b', nil
		}
	case '0':
		if p.eof() || p.peek() < '0' || p.peek() > '9' {
			return 0, nil
		}
		return 0, p.errorf("octal escapes are not supported")
	case 'c':
		if !p.eof() {
			if l := p.peek(); (l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z') {
				p.pos++
				return l % 32, nil
			}
		}
		return '\\', p.backUp(1) // Annex B: "\c" stays a backslash then 'c'
	case 'x':
		if v, ok := p.hexDigits(2); ok {
			return v, nil
		}
		return 'x', nil
	case 'u':
		return p.unicodeEscape(), nil
	}
	return c, nil // identity escape
}

// backUp steps back n bytes (used by Annex B fallbacks that re-read input).
func (p *ecmaParser) backUp(n int) error {
	p.pos -= n
	return nil
}

func (p *ecmaParser) hexDigits(n int) (rune, bool) {
	if p.pos+n > len(p.src) {
		return 0, false
	}
	v, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += n
	return rune(v), true
}

// unicodeEscape reads the rest of \uXXXX, \u{X...} or a surrogate pair
// \uD83D\uDE00, after "\u".
func (p *ecmaParser) unicodeEscape() rune {
	if !p.eof() && p.peek() == '{' {
		end := strings.IndexByte(p.src[p.pos:], '}')
		if end > 1 && end <= 7 {
			if v, err := strconv.ParseUint(p.src[p.pos+1:p.pos+end], 16, 32); err == nil && v <= utf8.MaxRune {
				p.pos += end + 1
				return rune(v)
			}
		}
		return 'u'
	}
	hi, ok := p.hexDigits(4)
	if !ok {
		return 'u'
	}
	if hi >= 0xD800 && hi <= 0xDBFF && strings.HasPrefix(p.src[p.pos:], `\u`) {
		save := p.pos
		p.pos += 2
		if lo, ok := p.hexDigits(4); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			return (hi-0xD800)<<10 + (lo - 0xDC00) + 0x10000
		}
		p.pos = save
	}
	return hi
}

// class reads a character class after its '['.
func (p *ecmaParser) class() (*node, error) {
	n := &node{kind: nClass}
	if !p.eof() && p.peek() == '^' {
		p.pos++
		n.negate = true
	}
	for {
		if p.eof() {
			return nil, p.errorf("missing ']'")
		}
		if p.peek() == ']' {
			p.pos++
			return n, nil
		}
		lo, loSet, err := p.classAtom()
		if err != nil {
			return nil, err
		}
		if loSet == nil && !p.eof() && p.peek() == '-' && p.pos+1 < len(p.src) && p.src[p.pos+1] != ']' {
			save := p.pos
			p.pos++
			hi, hiSet, err := p.classAtom()
			if err != nil {
				return nil, err
			}
			if hiSet == nil {
				if hi < lo {
					return nil, p.errorf("range out of order in character class")
				}
				n.ranges = append(n.ranges, runeRange{lo, hi})
				continue
			}
			// Annex B: "a-\d" is 'a', '-' and \d.
			p.pos = save
		}
		if loSet != nil {
			n.ranges = append(n.ranges, loSet...)
		} else {
			n.ranges = append(n.ranges, runeRange{lo, lo})
		}
	}
}

// classAtom reads one class member: a character, or a class escape (returned
// as a set of ranges; negated escapes are complemented here).
func (p *ecmaParser) classAtom() (rune, []runeRange, error) {
	c := p.next()
	if c != '\\' {
		return c, nil, nil
	}
	if p.eof() {
		return 0, nil, p.errorf(`pattern ends with '\'`)
	}
	if ranges, negate, ok := p.classEscape(); ok {
		if negate {
			ranges = complement(ranges)
		}
		return 0, ranges, nil
	}
	if p.peek() == '-' {
		p.pos++
		return '-', nil, nil
	}
	r, err := p.characterEscape(true)
	return r, nil, err
}

// complement returns the code points not in ranges (sorted, disjoint input).
func complement(ranges []runeRange) []runeRange {
	rs := normalize(ranges)
	var out []runeRange
	next := rune(0)
	for _, r := range rs {
		if r.lo > next {
			out = append(out, runeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= utf8.MaxRune {
		out = append(out, runeRange{next, utf8.MaxRune})
	}
	return out
}

// normalize sorts and merges ranges.
func normalize(ranges []runeRange) []runeRange {
	rs := append([]runeRange(nil), ranges...)
	for i := 1; i < len(rs); i++ { // insertion sort: classes are small
		for j := i; j > 0 && rs[j].lo < rs[j-1].lo; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
	var out []runeRange
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			if r.hi > out[n-1].hi {
				out[n-1].hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

func (n *node) classMatches(c rune) bool {
	in := false
	for _, r := range n.ranges {
		if c >= r.lo && c <= r.hi {
			in = true
			break
		}
	}
	return in != n.negate
}
