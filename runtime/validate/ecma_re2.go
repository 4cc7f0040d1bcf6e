package validate

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// re2RepeatLimit is the largest repeat count Go's regexp accepts.
const re2RepeatLimit = 1000

// toRE2 writes an ECMA-262 AST as RE2 syntax with the same meaning: classes
// are spelled out as code point ranges (so \s, \S, '.' and \uXXXX keep their
// ECMA meaning), literals are escaped. ok is false when RE2 cannot express
// the pattern (lookaround, back-reference, repeat counts over 1000).
func toRE2(ast *ecmaAST) (string, bool) {
	if ast.needsBT || ast.maxRepeat > re2RepeatLimit {
		return "", false
	}
	var b strings.Builder
	writeRE2(&b, ast.root)
	return b.String(), true
}

func writeRE2(b *strings.Builder, n *node) {
	switch n.kind {
	case nLit:
		writeRE2Rune(b, n.r)
	case nClass:
		writeRE2Class(b, n)
	case nConcat:
		for _, s := range n.subs {
			writeRE2(b, s)
		}
	case nAlt:
		b.WriteString("(?:")
		for i, s := range n.subs {
			if i > 0 {
				b.WriteByte('|')
			}
			writeRE2(b, s)
		}
		b.WriteByte(')')
	case nGroup:
		if n.capture > 0 {
			b.WriteByte('(')
		} else {
			b.WriteString("(?:")
		}
		writeRE2(b, n.sub)
		b.WriteByte(')')
	case nRepeat:
		b.WriteString("(?:")
		writeRE2(b, n.sub)
		b.WriteByte(')')
		switch {
		case n.min == 0 && n.max == -1:
			b.WriteByte('*')
		case n.min == 1 && n.max == -1:
			b.WriteByte('+')
		case n.min == 0 && n.max == 1:
			b.WriteByte('?')
		case n.max == -1:
			fmt.Fprintf(b, "{%d,}", n.min)
		case n.min == n.max:
			fmt.Fprintf(b, "{%d}", n.min)
		default:
			fmt.Fprintf(b, "{%d,%d}", n.min, n.max)
		}
		if n.lazy {
			b.WriteByte('?')
		}
	case nBegin:
		b.WriteString(`\A`) // ECMA '^' without the m flag: start of input only
	case nEnd:
		b.WriteString(`\z`) // ECMA '$' without the m flag: end of input only
	case nWordB:
		b.WriteString(`\b`) // both are ASCII word boundaries
	case nNotWordB:
		b.WriteString(`\B`)
	}
}

func writeRE2Rune(b *strings.Builder, r rune) {
	switch {
	case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
		b.WriteRune(r)
	case r < 0x80 && strings.ContainsRune(`\.+*?()|[]{}^$-/#&~!%,:;<=>@_'"`+"` ", r):
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	default:
		fmt.Fprintf(b, `\x{%X}`, r)
	}
}

func writeRE2Class(b *strings.Builder, n *node) {
	ranges := normalize(n.ranges)
	if len(ranges) == 0 {
		if n.negate { // [^] matches any code point
			b.WriteString(`[\x{0}-\x{10FFFF}]`)
		} else { // [] matches nothing
			b.WriteString(`[^\x{0}-\x{10FFFF}]`)
		}
		return
	}
	b.WriteByte('[')
	if n.negate {
		b.WriteByte('^')
	}
	for _, r := range ranges {
		fmt.Fprintf(b, `\x{%X}`, r.lo)
		if r.hi != r.lo {
			fmt.Fprintf(b, `-\x{%X}`, r.hi)
		}
	}
	b.WriteByte(']')
}

// ecmaRegexp is a compiled ECMA-262 pattern: RE2 when it can express it,
// else the backtracking matcher.
type ecmaRegexp struct {
	source string
	re     *regexp.Regexp
	bt     *ecmaAST
}

// compileECMA compiles an ECMA-262 pattern.
func compileECMA(source string) (*ecmaRegexp, error) {
	ast, err := parseECMA(source)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", source, err)
	}
	if expr, ok := toRE2(ast); ok {
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fmt.Errorf("pattern %q (as RE2 %q): %w", source, expr, err)
		}
		return &ecmaRegexp{source: source, re: re}, nil
	}
	if err := checkBacktrackable(ast); err != nil {
		return nil, fmt.Errorf("pattern %q: %w", source, err)
	}
	return &ecmaRegexp{source: source, bt: ast}, nil
}

// usesBacktracking reports whether the pattern runs on the backtracking matcher.
func (e *ecmaRegexp) usesBacktracking() bool { return e.bt != nil }

// errMatchBudget reports a backtracking match stopped by its step budget.
var errMatchBudget = fmt.Errorf("pattern evaluation exceeded its step budget")

// MatchString reports whether s contains a match, as RegExp.prototype.test
// does. The error is errMatchBudget when the backtracking matcher gave up.
func (e *ecmaRegexp) MatchString(s string) (bool, error) {
	if e.re != nil {
		return e.re.MatchString(s), nil
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return backtrackSearch(e.bt, s)
}

// re2Key returns an RE2 spelling of an ECMA pattern for places that need a
// *regexp.Regexp (patternProperties keys). It keeps the source when RE2
// reads it the same way, so schema locations stay unchanged.
func re2Key(source string) (string, error) {
	ast, err := parseECMA(source)
	if err != nil {
		return "", fmt.Errorf("pattern %q: %w", source, err)
	}
	expr, ok := toRE2(ast)
	if !ok {
		return "", fmt.Errorf("pattern %q: patternProperties keys need an RE2-expressible pattern (no lookaround or back-reference)", source)
	}
	if plainRE2(source) {
		return source, nil
	}
	return expr, nil
}

// plainRE2 reports whether source uses only constructs that mean the same
// in ECMA-262 and RE2: literals, [...] classes of literals and ranges, \d \w
// \b, anchors, groups and quantifiers.
func plainRE2(source string) bool {
	if _, err := regexp.Compile(source); err != nil {
		return false
	}
	for i := 0; i < len(source); i++ {
		switch c := source[i]; {
		case c == '.' || c >= 0x80:
			return false
		case c == '\\':
			if i+1 >= len(source) || !strings.ContainsRune(`dwbDWB.+*?()|[]{}^$/-`, rune(source[i+1])) {
				return false
			}
			i++
		case c == '[' && i+1 < len(source) && (source[i+1] == ']' || strings.HasPrefix(source[i+1:], "^]")):
			return false
		}
	}
	return true // '^' and '$' mean start and end of input in both without flags
}
