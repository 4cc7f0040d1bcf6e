package validate

import "unicode/utf8"

// patternMatcher runs a pattern on the fast path. Most of the corpus's
// patterns are one character class repeated over the whole string
// (^[A-Z]{3}$, ^[a-z0-9_]+$); those are checked by a loop over the code
// points, and everything else by the compiled ECMA-262 expression.
type patternMatcher struct {
	re  *ecmaRegexp
	run *classRun
}

// classRun is ^C{min,max}$ for a class (or literal) C; max -1 is unbounded.
type classRun struct {
	ascii    [2]uint64 // membership of code points below 128
	class    *node
	min, max int
}

func newPatternMatcher(re *ecmaRegexp) *patternMatcher {
	pm := &patternMatcher{re: re}
	ast, err := parseECMA(re.source)
	if err != nil {
		return pm
	}
	root := ast.root
	if root.kind != nConcat || len(root.subs) != 3 || root.subs[0].kind != nBegin || root.subs[2].kind != nEnd {
		return pm
	}
	rep := root.subs[1]
	if rep.kind != nRepeat || rep.lazy || rep.sub == nil || rep.sub.kind != nClass {
		return pm
	}
	run := &classRun{class: rep.sub, min: rep.min, max: rep.max}
	for c := rune(0); c < 128; c++ {
		if rep.sub.classMatches(c) {
			run.ascii[c/64] |= 1 << (c % 64)
		}
	}
	pm.run = run
	return pm
}

// MatchString is ecmaRegexp.MatchString.
func (pm *patternMatcher) MatchString(s string) (bool, error) {
	if pm.run == nil {
		return pm.re.MatchString(s)
	}
	r := pm.run
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if r.ascii[c/64]&(1<<(c%64)) == 0 {
				return false, nil
			}
			i++
		} else {
			cp, size := utf8.DecodeRuneInString(s[i:])
			if !r.class.classMatches(cp) {
				return false, nil
			}
			i += size
		}
		n++
		if r.max >= 0 && n > r.max {
			return false, nil
		}
	}
	return n >= r.min, nil
}
