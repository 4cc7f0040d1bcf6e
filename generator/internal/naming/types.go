package naming

import (
	"sort"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// ShortenAt is the length from which a name built down a chain of inline
// types drops the segments between its anchor and its parent.
const ShortenAt = 40

// LongName is the length from which such a name also drops its parent's
// segment, keeping the anchor and its own.
const LongName = 50

// link is one way to name a type after another: parent name + a suffix.
type link struct {
	parent   *ir.Type
	suffixes []string
}

// candidate is one name a type may take. seg is the suffix it adds to its
// parent's name and anchor the nearest type named on its own, both used to
// build shorter names for the type's own children.
type candidate struct {
	name   string
	seg    string
	anchor *ir.Type
}

// typeNamer holds the state of the type-naming pass.
type typeNamer struct {
	taken  map[string]bool
	links  map[*ir.Type][]link
	seg    map[*ir.Type]string
	anchor map[*ir.Type]*ir.Type
}

// nameTypes resolves type names generation by generation: types with no
// parent first, then types named after them, and so on.
func nameTypes(types []*ir.Type, taken map[string]bool) {
	n := &typeNamer{taken: taken, links: map[*ir.Type][]link{}, seg: map[*ir.Type]string{}, anchor: map[*ir.Type]*ir.Type{}}
	homes := armHomes(types)
	for _, t := range types {
		var ls []link
		if h, ok := homes[t]; ok {
			ls = append(ls, h)
		}
		for _, l := range []link{{t.Parent, t.Suffixes}, {t.AltParent, t.AltSuffixes}} {
			if l.parent != nil && l.parent != t {
				ls = append(ls, l)
			}
		}
		n.links[t] = ls
	}
	// A type comes in a later generation than every type it may be named
	// after. A link that would close a cycle is dropped.
	depth := map[*ir.Type]int{}
	visiting := map[*ir.Type]bool{}
	var depthOf func(t *ir.Type) int
	depthOf = func(t *ir.Type) int {
		if d, ok := depth[t]; ok {
			return d
		}
		visiting[t] = true
		d := 0
		kept := n.links[t][:0]
		for _, l := range n.links[t] {
			if visiting[l.parent] {
				continue
			}
			kept = append(kept, l)
			if pd := depthOf(l.parent) + 1; pd > d {
				d = pd
			}
		}
		n.links[t] = kept
		delete(visiting, t)
		depth[t] = d
		return d
	}
	maxDepth := 0
	for _, t := range types {
		if d := depthOf(t); d > maxDepth {
			maxDepth = d
		}
	}
	for gen := 0; gen <= maxDepth; gen++ {
		var batch []*ir.Type
		for _, t := range types {
			if depth[t] == gen {
				batch = append(batch, t)
			}
		}
		n.resolve(batch)
	}
}

// armHomes finds union arms whose type was first met under a union of
// another file (a merged copy of this file's union): they are named after
// the union of their own file first, so the name does not depend on who
// else refers to the schema.
func armHomes(types []*ir.Type) map[*ir.Type]link {
	homes := map[*ir.Type]link{}
	var order []*ir.Type
	for _, u := range types {
		if u.Kind == ir.KindUnion && u.Union != nil {
			order = append(order, u)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].Loc.String() < order[j].Loc.String() })
	for _, u := range order {
		for _, a := range u.Union.Arms {
			t := namedOf(a.Type)
			if t == nil || t == u || t.Parent == nil || t.Parent == u || t.Loc.File != u.Loc.File ||
				t.Parent.Loc.File == t.Loc.File {
				continue
			}
			if _, ok := homes[t]; !ok {
				homes[t] = link{u, []string{a.Label}}
			}
		}
	}
	return homes
}

// candidates lists a type's names, best first.
func (n *typeNamer) candidates(t *ir.Type) []candidate {
	var out []candidate
	add := func(name, seg string, anchor *ir.Type) {
		if name == "" || !isIdent(name) {
			return
		}
		for _, o := range out {
			if o.name == name {
				return
			}
		}
		out = append(out, candidate{name, seg, anchor})
	}
	for _, h := range t.Hints {
		add(h, "", t)
	}
	for _, l := range n.links[t] {
		suffixes := l.suffixes
		if len(suffixes) == 0 {
			suffixes = []string{"Value"}
		}
		anchor := n.anchor[l.parent]
		for _, s := range suffixes {
			full := JoinName(l.parent.Name, s)
			if ps := n.seg[l.parent]; len(full) >= ShortenAt && anchor != l.parent && ps != "" {
				short := JoinName(JoinName(anchor.Name, ps), s)
				if len(short) >= LongName {
					add(JoinName(anchor.Name, s), s, anchor)
				}
				add(short, s, anchor)
			}
			add(full, s, anchor)
			add(l.parent.Name+s, s, anchor)
		}
	}
	if len(out) == 0 {
		add("Type", "", t)
	}
	return out
}

// JoinName appends suffix to name, dropping the words the suffix repeats
// from the end of name ("AudioDaast" + "DaastVersion" -> "AudioDaastVersion").
// A suffix that is all repetition is kept whole.
func JoinName(name, suffix string) string {
	nw, sw := Words(name), Words(suffix)
	if strings.Join(sw, "") != suffix {
		return name + suffix
	}
	for k := min(len(nw), len(sw)-1); k > 0; k-- {
		if strings.EqualFold(strings.Join(nw[len(nw)-k:], " "), strings.Join(sw[:k], " ")) {
			return name + strings.Join(sw[k:], "")
		}
	}
	return name + suffix
}

func isIdent(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// resolve names a batch against names already taken, per the policy.
func (n *typeNamer) resolve(batch []*ir.Type) {
	sort.SliceStable(batch, func(i, j int) bool { return batch[i].Loc.String() < batch[j].Loc.String() })
	cands := make([][]candidate, len(batch))
	level := make([]int, len(batch))
	for i, t := range batch {
		cands[i] = n.candidates(t)
	}
	for {
		groups := map[string][]int{}
		for i := range batch {
			if level[i] < len(cands[i]) {
				name := cands[i][level[i]].name
				groups[name] = append(groups[name], i)
			}
		}
		changed := false
		for name, members := range groups {
			if n.taken[name] {
				for _, i := range members {
					level[i]++
				}
				changed = true
				continue
			}
			if len(members) == 1 {
				continue
			}
			keep := owner(batch, members)
			for _, i := range members {
				if i != keep {
					level[i]++
				}
			}
			changed = true
		}
		if !changed {
			break
		}
	}
	// Settle: types still holding a candidate take it; the rest number their
	// last candidate in location order.
	for i, t := range batch {
		if level[i] < len(cands[i]) {
			n.settle(t, cands[i][level[i]])
		}
	}
	for i, t := range batch {
		if t.Name != "" {
			continue
		}
		last := cands[i][len(cands[i])-1]
		for k := 2; ; k++ {
			if name := last.name + strconv.Itoa(k); !n.taken[name] {
				last.name = name
				n.settle(t, last)
				break
			}
		}
	}
}

func (n *typeNamer) settle(t *ir.Type, c candidate) {
	t.Name = c.name
	n.taken[c.name] = true
	n.seg[t], n.anchor[t] = c.seg, c.anchor
}

// owner picks which of several types wanting one name keeps it: the best
// rank, then the first schema location; -1 when two share both.
func owner(batch []*ir.Type, members []int) int {
	best := -1
	tie := false
	for _, i := range members {
		switch {
		case best < 0 || batch[i].Rank < batch[best].Rank:
			best, tie = i, false
		case batch[i].Rank == batch[best].Rank:
			a, b := batch[i].Loc.String(), batch[best].Loc.String()
			if a < b {
				best, tie = i, false
			} else if a == b {
				tie = true
			}
		}
	}
	if tie {
		return -1
	}
	return best
}
