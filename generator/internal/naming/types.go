package naming

import (
	"cmp"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

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
	taken map[string]bool
	// keptFrom is, for each type that kept a name, the schema key the
	// earlier generation gave it to.
	keptFrom map[*ir.Type]string
	links    map[*ir.Type][]link
	seg      map[*ir.Type]string
	anchor   map[*ir.Type]*ir.Type
}

// nameTypes resolves type names: first the names kept from an earlier
// generation (keepNames), then generation by generation: types with no
// parent first, then types named after them, and so on.
func nameTypes(types []*ir.Type, taken map[string]bool, keep Keep) (keptFrom map[*ir.Type]string) {
	n := &typeNamer{taken: taken, keptFrom: map[*ir.Type]string{}, links: map[*ir.Type][]link{}, seg: map[*ir.Type]string{},
		anchor: map[*ir.Type]*ir.Type{}}
	n.keepNames(types, keep)
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
			if depth[t] == gen && t.Name == "" {
				batch = append(batch, t)
			}
		}
		n.resolve(batch)
	}
	return n.keptFrom
}

// keepNames gives each type the name an earlier generation gave its
// schema, in three passes, each taking only names still free: the same
// schema at the same place (key and digest: the digest leaves out what
// only documents the schema, so an edited description keeps the name);
// the same schema moved (its digest, found once on either side among the
// schemas left, else the digest of its whole text: an arm shifted by
// an arm inserted before it, a definition moved to another file); the
// same place with its schema edited, unless the place is an arm's (a
// union's, or an allOf member's, index) or lies in a union's arm, where
// another schema may now stand (those are named by the policy, from what
// tells the arm apart); a place in an allOf member is known without the
// member's index (ir.PlaceOf: the members are one struct). A package an earlier adcpgen generated recorded the
// digest of the whole text alone, matched as such.
func (n *typeNamer) keepNames(types []*ir.Type, keep Keep) {
	if len(keep.Types) == 0 {
		return
	}
	sorted := sortedByKey(types)
	take := func(t *ir.Type, key string) {
		if name := keep.Types[key]; t.Name == "" && name != "" && token.IsIdentifier(name) && isIdent(name) && !n.taken[name] {
			n.settle(t, candidate{name: name, anchor: t})
			n.keptFrom[t] = key
		}
	}
	for _, t := range sorted {
		d, ok := keep.Digests[t.Key()]
		if ok && (d == t.Digest || d == t.TextDigest) || keep.TextDigests[t.Key()] == t.TextDigest && t.TextDigest != "" {
			take(t, t.Key())
		}
	}
	// Digests found once on either side among the schemas left (old ones
	// whose name no type took, new ones without a name): the recorded
	// digests (of either kind) against both of each type's, then the
	// recorded text digests.
	once := func(recorded map[string]string) map[string]string {
		by := map[string]string{}
		for key, d := range recorded {
			if n.taken[keep.Types[key]] {
				continue
			}
			if _, dup := by[d]; dup {
				by[d] = ""
				continue
			}
			by[d] = key
		}
		return by
	}
	oldByDigest, oldByText := once(keep.Digests), once(keep.TextDigests)
	newDigests := map[string]int{}
	for _, t := range types {
		if t.Name != "" {
			continue
		}
		newDigests[t.Digest]++
		if t.TextDigest != t.Digest {
			newDigests[t.TextDigest]++
		}
	}
	for _, t := range sorted {
		for _, d := range []string{t.Digest, t.TextDigest} {
			if key := oldByDigest[d]; key != "" && newDigests[d] == 1 {
				take(t, key)
			}
		}
		if key := oldByText[t.TextDigest]; key != "" && newDigests[t.TextDigest] == 1 {
			take(t, key)
		}
	}
	for _, t := range sorted {
		if !t.InArm() {
			take(t, t.Key())
		}
	}
	// Places in allOf members, known without the member's index (the
	// members merge into one struct, whose property it is), found once on
	// either side.
	oldAt := map[string]string{}
	for key := range keep.Types {
		if p := ir.PlaceOf(key); p != "" && p != key {
			if _, dup := oldAt[p]; dup {
				oldAt[p] = ""
				continue
			}
			oldAt[p] = key
		}
	}
	newAt := map[string]int{}
	for _, t := range types {
		if p := t.Place(); p != "" && p != t.Key() {
			newAt[p]++
		}
	}
	for _, t := range sorted {
		if p := t.Place(); p != "" && p != t.Key() && newAt[p] == 1 && oldAt[p] != "" {
			take(t, oldAt[p])
		}
	}
}

// sortedByKey returns types in the order of their schema keys.
func sortedByKey(types []*ir.Type) []*ir.Type {
	out := append([]*ir.Type(nil), types...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
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
			t := ir.NamedOf(a.Type)
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
	for i, l := range n.links[t] {
		suffixes := l.suffixes
		if len(suffixes) == 0 {
			suffixes = []string{"Value"}
		}
		anchor := n.anchor[l.parent]
		var forms []string
		for _, s := range suffixes {
			s = unrepeated(l.parent.Name, s, t)
			// A suffix opening with the words the parent's name opens with
			// says them once (CreateMediaBuyResponse's arm
			// CreateMediaBuySubmitted is CreateMediaBuyResponseSubmitted).
			if trimmed := saidFirst(l.parent.Name, s); trimmed != "" {
				forms = append(forms, trimmed)
			}
			forms = append(forms, s)
		}
		for _, s := range forms {
			if i == 0 && t.Merged.File != "" && t.Merged == l.parent.Loc {
				// An arm of a union merged from another file is named
				// after its own file (the merge's) first.
				add(JoinName(fileGoName(t.Merged.File), s), s, anchor)
			}
			prefixes := []string{l.parent.Name}
			if ps := n.seg[l.parent]; len(JoinName(l.parent.Name, s)) >= ShortenAt && anchor != l.parent && ps != "" {
				mid := JoinName(anchor.Name, ps)
				if Repeats(mid) {
					mid = anchor.Name // the parent's segment only says the anchor again
				}
				prefixes = []string{mid, l.parent.Name}
				if len(JoinName(mid, s)) >= LongName {
					prefixes = []string{anchor.Name, mid, l.parent.Name}
				}
			}
			for _, p := range prefixes {
				for _, name := range shortened(p, s, t) {
					add(name, s, anchor)
				}
			}
			add(l.parent.Name+s, s, anchor)
		}
	}
	if len(out) == 0 {
		add("Type", "", t)
	}
	if q := folderOf(t); q != "" && t.Parent != nil {
		// Before a number: the first candidate qualified by its folder, as
		// roots are (core/payment.json's arm CardRefund, when another type
		// holds PaymentCardRefund, is CorePaymentCardRefund).
		add(JoinName(q, out[0].name), out[0].seg, out[0].anchor)
	}
	if c := out[0]; c.seg != "" && strings.HasSuffix(c.name, c.seg) {
		// Then by the first word of its description its name does not
		// say, before its own segment (brand.json's Brand.contact,
		// "Brand-level contact information", when the definition contact
		// holds BrandContact, is BrandLevelContact).
		if q := describedBy(t.Description, c.name); q != "" {
			add(c.name[:len(c.name)-len(c.seg)]+q+c.seg, q+c.seg, c.anchor)
		}
	}
	return out
}

// saidFirst returns suffix without the two or more words it opens with
// that parent's name opens with too ("CreateMediaBuyResponse",
// "CreateMediaBuySubmitted" -> "Submitted"); "" when it opens with fewer,
// or nothing is left.
func saidFirst(parent, suffix string) string {
	pw, sw := Words(parent), Words(suffix)
	if strings.Join(sw, "") != suffix {
		return ""
	}
	k := 0
	for k < len(pw) && k < len(sw) && strings.EqualFold(pw[k], sw[k]) {
		k++
	}
	if k < 2 || k == len(sw) {
		return ""
	}
	return strings.Join(sw[k:], "")
}

// minorWords are the words of a description that qualify nothing.
var minorWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "for": true, "to": true, "and": true,
	"or": true, "in": true, "on": true, "with": true, "at": true, "by": true, "this": true, "that": true, "is": true,
	"are": true, "be": true, "as": true, "its": true, "it": true, "from": true, "when": true, "if": true}

// describedBy is the first word of description (in Go spelling, three
// letters or more) that name does not say and that qualifies something; ""
// when there is none.
func describedBy(description, name string) string {
	said := map[string]bool{}
	for _, w := range Words(name) {
		said[strings.ToLower(Singular(w))] = true
	}
	for _, w := range Words(description) {
		lw := strings.ToLower(w)
		if len(w) < 3 || minorWords[lw] || said[strings.ToLower(Singular(w))] || unicode.IsDigit(rune(w[0])) {
			continue
		}
		if g := GoName(w); isIdent(g) {
			return g
		}
	}
	return ""
}

// shortened returns prefix joined with suffix and, first, when that is
// LongName characters or more, shorter forms: the suffix without the words
// the prefix already says (ProductAudienceEvidenceRequirements +
// AcceptedEvidenceType = ProductAudienceEvidenceRequirementsAcceptedType),
// and a task payload's prefix without its last word (GetAdCPCapabilities,
// not GetAdCPCapabilitiesResponse).
func shortened(prefix, suffix string, t *ir.Type) []string {
	name := JoinName(prefix, suffix)
	if len(name) < LongName {
		return []string{name}
	}
	var out []string
	once := saidOnce(prefix, suffix)
	if once == "" {
		once = unrepeated(prefix, JoinName("", lastWords(prefix, suffix)), t)
	}
	if once != suffix {
		out = append(out, JoinName(prefix, once))
	}
	if stem, ok := taskStem(prefix); ok {
		out = append(out, JoinName(stem, suffix))
		if once != suffix {
			out = append(out, JoinName(stem, once))
		}
	}
	// The forms below LongName first.
	slices.SortStableFunc(out, func(a, b string) int {
		return cmp.Compare(boolInt(len(a) >= LongName), boolInt(len(b) >= LongName))
	})
	return append(out, name)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// saidOnce drops from suffix the words prefix already says (a plural and
// its singular count as one word); "" when none is left.
func saidOnce(prefix, suffix string) string {
	said := map[string]bool{}
	for _, w := range Words(prefix) {
		said[strings.ToLower(Singular(w))] = true
	}
	var kept []string
	for _, w := range Words(suffix) {
		if !said[strings.ToLower(Singular(w))] {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, "")
}

// lastWords is suffix when it is all said by prefix: what unrepeated then
// gives a word for what the type is.
func lastWords(prefix, suffix string) string {
	pw := Words(prefix)
	return strings.Join(pw[max(0, len(pw)-len(Words(suffix))):], "")
}

// taskStem is a name built on a task payload's without the payload's
// last word: "GetProducts" for "GetProductsResponse",
// "GetAdCPCapabilitiesSignalActivation" for
// "GetAdCPCapabilitiesResponseSignalActivation"; false for other names.
func taskStem(name string) (string, bool) {
	w := Words(name)
	for i := 2; i < len(w); i++ {
		if w[i] == "Request" || w[i] == "Response" {
			return strings.Join(append(w[:i:i], w[i+1:]...), ""), true
		}
	}
	return "", false
}

// fileGoName is the type name a file's base name suggests
// ("core/postal-area.json" is PostalArea).
func fileGoName(file string) string {
	base := file[strings.LastIndexByte(file, '/')+1:]
	return GoName(strings.TrimSuffix(base, ".json"))
}

// folderOf is the Go name of the folder of t's file ("" at the root).
func folderOf(t *ir.Type) string {
	file := t.Loc.File
	if t.Merged.File != "" {
		file = t.Merged.File
	}
	if i := strings.LastIndexByte(file, '/'); i > 0 {
		return GoName(file[:i])
	}
	return ""
}

// unrepeated returns suffix, or, when the suffix only says again what
// parent's name ends with (a "claim" member of VerifyPropertyClaim), the
// suffix with a word for what t is in its parent: "Item" for array
// elements, "Entry" for map values, "Value" for a member ("Member" when
// parent already ends with that word). JoinName then says the repeated
// words once: VerifyPropertyClaimValue, not VerifyPropertyClaimClaim.
func unrepeated(parent, suffix string, t *ir.Type) string {
	pw, sw := Words(parent), Words(suffix)
	if len(sw) == 0 || len(sw) > len(pw) || !strings.EqualFold(strings.Join(pw[len(pw)-len(sw):], " "), strings.Join(sw, " ")) {
		return suffix
	}
	word := "Value"
	switch last := lastToken(t.Loc.Pointer); {
	case last == "items":
		word = "Item"
	case last == "additionalProperties" || strings.Contains(t.Loc.Pointer, "/patternProperties/"):
		word = "Entry"
	}
	if strings.HasSuffix(parent, word) {
		word = "Member"
	}
	return suffix + word
}

func lastToken(ptr string) string {
	return ptr[strings.LastIndexByte(ptr, '/')+1:]
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
	sort.SliceStable(batch, func(i, j int) bool { return batch[i].Key() < batch[j].Key() })
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
			a, b := batch[i].Key(), batch[best].Key()
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
