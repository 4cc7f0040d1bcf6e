package synth

import (
	"slices"
	"strconv"
	"strings"
)

// unknownProbe is a key no AdCP schema declares: an object that rejects it
// is closed.
const unknownProbe = "zz_synth_unknown"

// childCache keeps a member's value across repair rounds while its schema
// is unchanged.
type childCache struct {
	sig      string
	val      any
	sites    []Site
	problems []string
	extras   int
}

// repair is one adjustment diagnose asks for.
type repair struct {
	exclude []string // drop these optional members
	require []string
	add     *node  // a then/else branch or schema dependency now applies
	resalt  string // build this member with salt instead
	salt    int
	giveUp  string
}

// object builds an object, then checks it against the whole conjunction and
// repairs it: a few rounds at most.
func (g *gen) object(flat []node, choices []chosen, salt int) (any, bool) {
	s0, p0 := len(g.sites), len(g.problems)
	all := flat
	excluded := map[string]bool{}
	added := map[string]bool{}
	var extraReq []string
	cache := map[string]*childCache{}
	keySalt := map[string]int{}
	var o *Obj
	var required []string
	rebuild := true
	for round := 0; ; round++ {
		if rebuild {
			g.sites, g.problems = g.sites[:s0], g.problems[:p0]
			var ok bool
			o, required, ok = g.buildObject(all, extraReq, excluded, salt, keySalt, cache)
			if !ok {
				return nil, false
			}
		}
		if round >= 12 {
			g.problem("object still fails its schema after %d repairs", round)
			break
		}
		r := g.diagnose(all, choices, o, required, added, salt)
		switch {
		case len(r.exclude) > 0:
			for _, k := range r.exclude {
				excluded[k] = true
				o.Delete(k)
				g.dropSites(s0, append(slices.Clone(g.ptr), k))
			}
			rebuild = false
			continue
		case len(r.require) > 0:
			extraReq = append(extraReq, r.require...)
		case r.resalt != "":
			keySalt[r.resalt] = r.salt
		case r.add != nil:
			added[r.add.id()] = true
			branch := *r.add
			branch.cond = true
			more, _, moreChoices := g.flatten([]node{branch}, nil)
			all = append(slices.Clip(all), more...)
			choices = append(choices, moreChoices...)
		case r.giveUp != "":
			g.problem("%s", r.giveUp)
		}
		if r.giveUp != "" || (len(r.require) == 0 && r.add == nil && r.resalt == "") {
			break
		}
		rebuild = true
	}
	site := Site{
		Pointer: slices.Clone(g.ptr),
		Closed:  g.closed(all),
		Union:   g.union > 0,
		members: map[string][]node{},
	}
	base := map[string]bool{}
	for _, n := range all {
		if n.cond {
			continue
		}
		req, _ := n.obj()["required"].([]any)
		for _, r := range req {
			if s, ok := r.(string); ok {
				base[s] = true
			}
		}
	}
	for _, m := range o.Members {
		site.members[m.Key] = g.keyConj(all, m.Key)
		switch {
		case base[m.Key]:
			site.Required = append(site.Required, m.Key)
		case slices.Contains(required, m.Key):
			site.Conditional = append(site.Conditional, m.Key)
		}
	}
	g.sites = slices.Insert(g.sites, s0, site)
	return o, true
}

// buildObject picks the members and builds their values.
func (g *gen) buildObject(all []node, extraReq []string, excluded map[string]bool, salt int, keySalt map[string]int, cache map[string]*childCache) (*Obj, []string, bool) {
	declared := map[string]bool{}
	var required []string
	minP, maxP := 0, -1
	for _, n := range all {
		for k := range n.props("properties") {
			declared[k] = true
		}
		m := n.obj()
		if req, ok := m["required"].([]any); ok {
			for _, r := range req {
				if s, ok := r.(string); ok && !slices.Contains(required, s) {
					required = append(required, s)
				}
			}
		}
		if v, ok := m["minProperties"]; ok {
			minP = max(minP, int(num(v)))
		}
		if v, ok := m["maxProperties"]; ok {
			if k := int(num(v)); maxP < 0 || k < maxP {
				maxP = k
			}
		}
	}
	for _, r := range extraReq {
		if !slices.Contains(required, r) {
			required = append(required, r)
		}
	}
	keys := slices.Clone(required)
	optional := func(add func(string) bool) {
		for _, k := range sortedKeys(declared) {
			if !slices.Contains(keys, k) && !excluded[k] && g.allowedKey(all, k) && !isFalse(g.keyConj(all, k)) {
				if !add(k) {
					return
				}
			}
		}
	}
	if g.max {
		optional(func(k string) bool { keys = append(keys, k); return true })
		if name, ok := g.extraKey(all, declared, salt); ok && !excluded[name] && !slices.Contains(keys, name) {
			keys = append(keys, name)
		}
	}
	for extra := 1; len(keys) < minP; extra++ {
		before := len(keys)
		optional(func(k string) bool { keys = append(keys, k); return false })
		if len(keys) == before {
			name, ok := g.extraKey(all, declared, salt+extra)
			if !ok || slices.Contains(keys, name) || extra > 8 {
				g.problem("cannot reach minProperties %d", minP)
				break
			}
			keys = append(keys, name)
		}
	}
	for maxP >= 0 && len(keys) > maxP {
		i := len(keys) - 1
		for i >= 0 && slices.Contains(required, keys[i]) {
			i--
		}
		if i < 0 {
			g.problem("more required members than maxProperties %d", maxP)
			break
		}
		keys = slices.Delete(keys, i, i+1)
	}
	o := &Obj{Members: make([]Member, 0, len(keys))}
	for _, k := range keys {
		conj := g.keyConj(all, k)
		ks := salt
		if s, ok := keySalt[k]; ok {
			ks = s
		}
		sig := conjSig(conj) + strconv.Itoa(ks)
		if c := cache[k]; c != nil && c.sig == sig {
			g.sites = append(g.sites, c.sites...)
			g.problems = append(g.problems, c.problems...)
			g.extras += c.extras
			o.Members = append(o.Members, Member{Key: k, Val: c.val})
			continue
		}
		s0, p0, e0 := len(g.sites), len(g.problems), g.extras
		if len(conj) == 0 && !declared[k] {
			g.extras++ // an unknown member: kept as raw JSON, refused in exact mode
		}
		g.ptr = append(g.ptr, k)
		v, ok := g.value(conj, ks)
		g.ptr = g.ptr[:len(g.ptr)-1]
		if !ok {
			return nil, nil, false
		}
		cache[k] = &childCache{sig: sig, val: v, sites: slices.Clone(g.sites[s0:]), problems: slices.Clone(g.problems[p0:]), extras: g.extras - e0}
		o.Members = append(o.Members, Member{Key: k, Val: v})
	}
	return o, required, true
}

func conjSig(conj []node) string {
	var b strings.Builder
	for _, n := range conj {
		b.WriteString(n.id())
		b.WriteByte(',')
	}
	return b.String()
}

func isFalse(conj []node) bool {
	for _, n := range conj {
		if b, ok := n.v.(bool); ok && !b {
			return true
		}
	}
	return false
}

// keyConj is the conjunction a member's value must satisfy: the property
// schemas naming it, the patternProperties matching it, and otherwise the
// additionalProperties schemas.
func (g *gen) keyConj(all []node, key string) []node {
	var out []node
	for _, n := range all {
		m := n.obj()
		matched := false
		if props, ok := m["properties"].(map[string]any); ok {
			if p, ok := props[key]; ok {
				out = append(out, node{doc: n.doc, v: p})
				matched = true
			}
		}
		if pats, ok := m["patternProperties"].(map[string]any); ok {
			for pat, p := range pats {
				if re := g.t.regexp(pat); re != nil && re.MatchString(key) {
					out = append(out, node{doc: n.doc, v: p})
					matched = true
				}
			}
		}
		if !matched {
			if a, ok := m["additionalProperties"]; ok {
				if _, isBool := a.(bool); !isBool {
					out = append(out, node{doc: n.doc, v: a})
				}
			}
		}
	}
	return out
}

// allowedKey reports whether every node lets an object have key.
func (g *gen) allowedKey(all []node, key string) bool {
	for _, n := range all {
		m := n.obj()
		if a, ok := m["additionalProperties"].(bool); !ok || a {
			continue
		}
		if props, ok := m["properties"].(map[string]any); ok {
			if _, ok := props[key]; ok {
				continue
			}
		}
		matched := false
		if pats, ok := m["patternProperties"].(map[string]any); ok {
			for pat := range pats {
				if re := g.t.regexp(pat); re != nil && re.MatchString(key) {
					matched = true
				}
			}
		}
		if !matched {
			return false
		}
	}
	for _, n := range all {
		if names, ok := n.sub("propertyNames"); ok && !g.t.match(names, key) {
			return false
		}
	}
	return true
}

// extraKey names a member no property declares, for maximal instances of
// open objects and maps: built from propertyNames or a patternProperties
// pattern when there is one.
func (g *gen) extraKey(all []node, declared map[string]bool, salt int) (string, bool) {
	var names []node
	var pattern string
	for _, n := range all {
		if s, ok := n.sub("propertyNames"); ok {
			names = append(names, s)
		}
		for pat := range n.props("patternProperties") {
			if pattern == "" || pat < pattern {
				pattern = pat
			}
		}
	}
	def := "x_synth"
	if salt > 0 {
		def += "_" + strconv.Itoa(salt)
	}
	cands := []string{def}
	if len(names) > 0 {
		sub := &gen{t: g.t, opts: g.opts, active: map[string]int{}}
		if s, ok := sub.value(names, salt); ok {
			if str, ok := s.(string); ok {
				cands = append([]string{str}, cands...)
			}
		}
	}
	if pattern != "" {
		if s, ok := g.fromPattern(pattern, salt, 0); ok {
			cands = append(cands, s)
		}
	}
	for _, c := range cands {
		if !declared[c] && g.allowedKey(all, c) {
			return c, true
		}
	}
	return "", false
}

// diagnose checks o against the conjunction and returns the first repair
// needed, or the zero repair when o is fine.
func (g *gen) diagnose(all []node, choices []chosen, o *Obj, required []string, added map[string]bool, salt int) repair {
	optional := func() []string {
		var out []string
		for i := len(o.Members) - 1; i >= 0; i-- {
			if k := o.Members[i].Key; !slices.Contains(required, k) {
				out = append(out, k)
			}
		}
		return out
	}
	without := func(keys ...string) *Obj {
		c := &Obj{Members: slices.Clone(o.Members)}
		for _, k := range keys {
			c.Delete(k)
		}
		return c
	}
	// escape finds optional members to drop so that bad no longer matches
	// (and keep does): the fewest of those bad mentions, else one at a time.
	escape := func(bad node, keep *node) *repair {
		ok := func(c *Obj) bool { return !g.t.match(bad, c) && (keep == nil || g.t.match(*keep, c)) }
		opt := optional()
		for _, k := range opt {
			if ok(without(k)) {
				return &repair{exclude: []string{k}}
			}
		}
		var named []string
		for _, k := range opt {
			if g.t.mentions(bad, k) {
				named = append(named, k)
			}
		}
		if len(named) > 0 && ok(without(named...)) {
			// Put back what is not needed.
			drop := slices.Clone(named)
			for _, k := range named {
				trial := slices.DeleteFunc(slices.Clone(drop), func(x string) bool { return x == k })
				if ok(without(trial...)) {
					drop = trial
				}
			}
			return &repair{exclude: drop}
		}
		// Another value of a member the schema names (an enum's next
		// value, say) may do, alone or once the named members are gone.
		if r := g.resalt(all, o, bad, salt, ok); r != nil {
			return r
		}
		if len(named) > 0 {
			if r := g.resalt(all, without(named...), bad, salt, ok); r != nil {
				return &repair{exclude: named}
			}
		}
		return nil
	}
	for _, n := range all {
		deps, _ := n.obj()["dependencies"].(map[string]any)
		for _, key := range sortedKeys(deps) {
			if !o.Has(key) {
				continue
			}
			switch d := deps[key].(type) {
			case []any:
				var missing []string
				for _, r := range d {
					if s, ok := r.(string); ok && !o.Has(s) {
						missing = append(missing, s)
					}
				}
				if len(missing) > 0 {
					if !slices.Contains(required, key) && slices.ContainsFunc(missing, func(m string) bool { return !g.allowedKey(all, m) }) {
						return repair{exclude: []string{key}}
					}
					return repair{require: missing}
				}
			default:
				dn := node{doc: n.doc, v: d}
				if !g.t.match(dn, o) && !added[dn.id()] {
					return repair{add: &dn}
				}
			}
		}
	}
	for _, n := range all {
		cond, ok := n.sub("if")
		if !ok {
			continue
		}
		branch := "else"
		if g.t.match(cond, o) {
			branch = "then"
		}
		if b, ok := n.sub(branch); ok && !g.t.match(b, o) && !added[b.id()] {
			// Rather than take on the branch, drop an optional member
			// that makes the condition hold, when the other branch then
			// holds.
			for _, k := range optional() {
				if !g.t.mentions(cond, k) {
					continue
				}
				w := without(k)
				other := "else"
				if g.t.match(cond, w) {
					other = "then"
				}
				if ob, ok := n.sub(other); !ok || g.t.match(ob, w) {
					return repair{exclude: []string{k}}
				}
			}
			return repair{add: &b}
		}
	}
	for _, n := range all {
		not, ok := n.sub("not")
		if !ok || !g.t.match(not, o) {
			continue
		}
		if r := escape(not, nil); r != nil {
			return *r
		}
		return repair{giveUp: "cannot escape a not: " + abbreviate(string(Marshal(not.v)))}
	}
	for _, c := range choices {
		if c.kw != "oneOf" {
			continue
		}
		arms := c.union.list("oneOf")
		var matching []int
		for i, a := range arms {
			if g.t.match(a, o) {
				matching = append(matching, i)
			}
		}
		if len(matching) == 1 && matching[0] == c.arm {
			continue
		}
		if !slices.Contains(matching, c.arm) {
			return repair{giveUp: "oneOf arm " + strconv.Itoa(c.arm) + " does not match the object built for it"}
		}
		for _, j := range matching {
			if j == c.arm {
				continue
			}
			if r := escape(arms[j], &arms[c.arm]); r != nil {
				return *r
			}
			return repair{giveUp: "oneOf arms " + strconv.Itoa(c.arm) + " and " + strconv.Itoa(j) + " both match"}
		}
	}
	if !g.t.matchAll(all, o) {
		return repair{giveUp: "object does not satisfy its schema"}
	}
	return repair{}
}

func abbreviate(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// mentions reports whether a schema names key in required, properties or
// dependencies, at any depth (following $refs a few levels).
func (t *Tree) mentions(n node, key string) bool { return t.mentionsDepth(n, key, 0) }

func (t *Tree) mentionsDepth(n node, key string, depth int) bool {
	m := n.obj()
	if m == nil || depth > 6 {
		return false
	}
	if ref, ok := m["$ref"].(string); ok {
		r, err := t.resolve(n.doc, ref)
		return err == nil && t.mentionsDepth(r, key, depth+1)
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if r == key {
				return true
			}
		}
	}
	if _, ok := n.props("properties")[key]; ok {
		return true
	}
	if deps, ok := m["dependencies"].(map[string]any); ok {
		if _, ok := deps[key]; ok {
			return true
		}
	}
	for _, kw := range [...]string{"anyOf", "oneOf", "allOf"} {
		for _, s := range n.list(kw) {
			if t.mentionsDepth(s, key, depth+1) {
				return true
			}
		}
	}
	for _, kw := range [...]string{"not", "if", "then", "else"} {
		if s, ok := n.sub(kw); ok && t.mentionsDepth(s, key, depth+1) {
			return true
		}
	}
	return false
}

// resalt looks for a member bad names whose value, built with another salt,
// makes ok(o) hold.
func (g *gen) resalt(all []node, o *Obj, bad node, salt int, ok func(*Obj) bool) *repair {
	for _, m := range o.Members {
		if !g.t.mentions(bad, m.Key) {
			continue
		}
		for s := salt + 1; s <= salt+8; s++ {
			s0, p0, e0 := len(g.sites), len(g.problems), g.extras
			g.ptr = append(g.ptr, m.Key)
			v, vok := g.value(g.keyConj(all, m.Key), s)
			g.ptr = g.ptr[:len(g.ptr)-1]
			g.sites, g.problems, g.extras = g.sites[:s0], g.problems[:p0], e0
			if !vok {
				break
			}
			c := &Obj{Members: slices.Clone(o.Members)}
			c.Set(m.Key, v)
			if ok(c) {
				return &repair{resalt: m.Key, salt: s}
			}
		}
	}
	return nil
}

// dropSites forgets the sites from index from on that lie under prefix
// (a member dropped after it was built).
func (g *gen) dropSites(from int, prefix []string) {
	kept := g.sites[:from]
	for _, s := range g.sites[from:] {
		if len(s.Pointer) >= len(prefix) && slices.Equal(s.Pointer[:len(prefix)], prefix) {
			continue
		}
		kept = append(kept, s)
	}
	g.sites = kept
}

// closed reports whether additionalProperties: false rejects an unknown
// member here (a propertyNames restriction alone does not count: the
// decoders do not model it).
func (g *gen) closed(all []node) bool {
	for _, n := range all {
		if a, ok := n.obj()["additionalProperties"].(bool); ok && !a {
			return !g.allowedKey(all, unknownProbe)
		}
	}
	return false
}
