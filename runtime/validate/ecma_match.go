package validate

import "fmt"

// A small backtracking matcher for the ECMA-262 patterns RE2 cannot run
// (lookaround, back-references). Payload strings are untrusted, so a match
// is bounded by input length and by a step budget; running out is reported
// as errMatchBudget, and the validator rejects the value rather than
// accepting it unchecked.

const (
	btMaxInput   = 16 << 10 // code points
	btStepBudget = 200_000
)

type btMatcher struct {
	in    []rune
	caps  []int // start, end per group; -1 when unset
	steps int
	over  bool
}

// checkBacktrackable rejects patterns the matcher cannot run faithfully.
func checkBacktrackable(ast *ecmaAST) error {
	var walk func(n *node) error
	walk = func(n *node) error {
		if n == nil {
			return nil
		}
		if n.kind == nBackref && n.capture > ast.groups {
			return fmt.Errorf("back-reference \\%d to a group that does not exist", n.capture)
		}
		for _, s := range n.subs {
			if err := walk(s); err != nil {
				return err
			}
		}
		return walk(n.sub)
	}
	return walk(ast.root)
}

// backtrackSearch reports whether ast matches anywhere in s.
func backtrackSearch(ast *ecmaAST, s string) (bool, error) {
	in := []rune(s)
	if len(in) > btMaxInput {
		return false, errMatchBudget
	}
	m := &btMatcher{in: in, caps: make([]int, 2*(ast.groups+1))}
	accept := func(int) bool { return true }
	for start := 0; start <= len(in); start++ {
		for i := range m.caps {
			m.caps[i] = -1
		}
		if m.match(ast.root, start, accept) {
			return true, nil
		}
		if m.over {
			return false, errMatchBudget
		}
	}
	return false, nil
}

func (m *btMatcher) isWord(i int) bool {
	if i < 0 || i >= len(m.in) {
		return false
	}
	c := m.in[i]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// match tries n at position i and calls k with each end position, in
// ECMA-262 preference order, until k accepts.
func (m *btMatcher) match(n *node, i int, k func(int) bool) bool {
	if m.over {
		return false
	}
	if m.steps++; m.steps > btStepBudget {
		m.over = true
		return false
	}
	switch n.kind {
	case nLit:
		return i < len(m.in) && m.in[i] == n.r && k(i+1)
	case nClass:
		return i < len(m.in) && n.classMatches(m.in[i]) && k(i+1)
	case nConcat:
		return m.seq(n.subs, i, k)
	case nAlt:
		for _, s := range n.subs {
			if m.match(s, i, k) {
				return true
			}
			if m.over {
				return false
			}
		}
		return false
	case nGroup:
		if n.capture == 0 {
			return m.match(n.sub, i, k)
		}
		c := 2 * n.capture
		return m.match(n.sub, i, func(j int) bool {
			oldS, oldE := m.caps[c], m.caps[c+1]
			m.caps[c], m.caps[c+1] = i, j
			if k(j) {
				return true
			}
			m.caps[c], m.caps[c+1] = oldS, oldE
			return false
		})
	case nRepeat:
		return m.repeat(n, i, 0, k)
	case nBegin:
		return i == 0 && k(i)
	case nEnd:
		return i == len(m.in) && k(i)
	case nWordB:
		return m.isWord(i-1) != m.isWord(i) && k(i)
	case nNotWordB:
		return m.isWord(i-1) == m.isWord(i) && k(i)
	case nLook:
		return m.look(n, i, k)
	case nBackref:
		s, e := m.caps[2*n.capture], m.caps[2*n.capture+1]
		if s < 0 || e < 0 {
			return k(i) // an unset group matches the empty string
		}
		l := e - s
		if i+l > len(m.in) {
			return false
		}
		for x := 0; x < l; x++ {
			if m.in[s+x] != m.in[i+x] {
				return false
			}
		}
		return k(i + l)
	}
	return false
}

func (m *btMatcher) seq(subs []*node, i int, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(i)
	}
	return m.match(subs[0], i, func(j int) bool { return m.seq(subs[1:], j, k) })
}

// repeat follows ECMA-262's RepeatMatcher: greedy or lazy, and an iteration
// that matches the empty string once min is reached fails.
func (m *btMatcher) repeat(n *node, i, count int, k func(int) bool) bool {
	iterate := func() bool {
		if n.max >= 0 && count >= n.max {
			return false
		}
		return m.match(n.sub, i, func(j int) bool {
			if j == i && count >= n.min {
				return false
			}
			return m.repeat(n, j, count+1, k)
		})
	}
	if count < n.min {
		return iterate()
	}
	if n.lazy {
		return k(i) || (!m.over && iterate())
	}
	return iterate() || (!m.over && k(i))
}

func (m *btMatcher) look(n *node, i int, k func(int) bool) bool {
	saved := append([]int(nil), m.caps...)
	matched := false
	if n.behind {
		for start := i; start >= 0 && !matched && !m.over; start-- {
			matched = m.match(n.sub, start, func(e int) bool { return e == i })
		}
	} else {
		matched = m.match(n.sub, i, func(int) bool { return true })
	}
	if m.over {
		return false
	}
	if matched == n.negate {
		copy(m.caps, saved)
		return false
	}
	if n.negate {
		copy(m.caps, saved)
	}
	if k(i) {
		return true
	}
	copy(m.caps, saved)
	return false
}
