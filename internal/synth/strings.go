package synth

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// str builds a string satisfying every node: from the schema's examples,
// its format, its pattern, or a plain word, padded to the length bounds.
func (g *gen) str(flat []node, choices []chosen, salt int) string {
	var formats, patterns, examples []string
	minL, maxL := 0, -1
	for _, n := range flat {
		m := n.obj()
		if f, ok := m["format"].(string); ok {
			formats = append(formats, f)
		}
		if p, ok := m["pattern"].(string); ok {
			patterns = append(patterns, p)
		}
		if ex, ok := m["examples"].([]any); ok {
			for _, e := range ex {
				if s, ok := e.(string); ok {
					examples = append(examples, s)
				}
			}
		}
		if d, ok := m["default"].(string); ok {
			examples = append(examples, d)
		}
		if v, ok := m["minLength"]; ok {
			minL = max(minL, int(num(v)))
		}
		if v, ok := m["maxLength"]; ok {
			if k := int(num(v)); maxL < 0 || k < maxL {
				maxL = k
			}
		}
	}
	var cands []string
	if salt == 0 {
		cands = append(cands, examples...)
	}
	for _, f := range formats {
		cands = append(cands, formatValue(f, salt))
	}
	for _, p := range patterns {
		reps := []int{0, 1, 3, 8, 32}
		if g.t.regexp(p) == nil {
			// Lookarounds were dropped to build it: the pattern's own
			// matcher cannot check, so try a filled-in string first.
			reps = []int{1, 3, 0, 8}
		}
		for _, rep := range reps {
			if s, ok := g.fromPattern(p, salt, rep); ok {
				cands = append(cands, s)
			}
		}
	}
	word := "synth"
	if salt > 0 {
		word += "-" + strconv.Itoa(salt)
	}
	// The last words tell a free-form string from identifier-like arms of
	// a oneOf.
	cands = append(cands, word, "Synth value "+strconv.Itoa(salt), "SYNTH."+strconv.Itoa(salt))
	if salt > 0 && len(examples) > 0 {
		cands = append(cands, examples[salt%len(examples)])
	}
	for _, c := range cands {
		if g.t.matchAll(flat, c) && g.exclusive(choices, c) {
			return c
		}
	}
	for _, c := range cands {
		if f := fit(c, minL, maxL); g.t.matchAll(flat, f) && g.exclusive(choices, f) {
			return f
		}
	}
	g.problem("no string satisfies format %v, pattern %v, length [%d,%d]", formats, patterns, minL, maxL)
	return fit(cands[0], minL, maxL)
}

// fit pads s with 'x' or cuts it to the length bounds (counted in runes).
func fit(s string, minL, maxL int) string {
	for utf8.RuneCountInString(s) < minL {
		s += "x"
	}
	if maxL >= 0 && utf8.RuneCountInString(s) > maxL {
		s = string([]rune(s)[:maxL])
	}
	return s
}

var formatBase = time.Date(2026, 1, 15, 10, 30, 0, 0, time.UTC)

// formatValue is a well-formed string of a format, varied by salt.
func formatValue(format string, salt int) string {
	switch format {
	case "date-time":
		return formatBase.Add(time.Duration(salt) * time.Hour).Format(time.RFC3339)
	case "date":
		return formatBase.AddDate(0, 0, salt).Format(time.DateOnly)
	case "time":
		return fmt.Sprintf("10:%02d:00Z", salt%60)
	case "uri", "uri-reference", "iri", "iri-reference":
		return fmt.Sprintf("https://example.com/synth/%d", salt)
	case "uri-template":
		return fmt.Sprintf("https://example.com/synth/%d/{id}", salt)
	case "email", "idn-email":
		return fmt.Sprintf("synth%d@example.com", salt)
	case "uuid":
		return fmt.Sprintf("3f2b8c1e-5d4a-4b6c-9e8f-%012d", salt)
	case "hostname", "idn-hostname":
		return fmt.Sprintf("s%d.example.com", salt)
	case "ipv4":
		return fmt.Sprintf("192.0.2.%d", 1+salt%250)
	case "ipv6":
		return fmt.Sprintf("2001:db8::%x", 1+salt)
	case "regex":
		return "^synth$"
	case "duration":
		return fmt.Sprintf("P%dD", 1+salt)
	case "json-pointer":
		return "/synth"
	}
	return "synth"
}

// fromPattern builds a string the pattern matches: the first alternative,
// the least repetition plus rep, character classes stepped by salt.
func (g *gen) fromPattern(pattern string, salt, rep int) (string, bool) {
	type key struct {
		pattern   string
		salt, rep int
	}
	k := key{pattern, salt, rep}
	if v, ok := g.t.generated.Load(k); ok {
		s := v.(string)
		return s, s != "\x00"
	}
	s, ok := g.t.buildFromPattern(pattern, salt, rep)
	if !ok {
		s = "\x00"
	}
	g.t.generated.Store(k, s)
	return s, ok
}

func (t *Tree) buildFromPattern(pattern string, salt, rep int) (string, bool) {
	re, err := syntax.Parse(stripLookarounds(ecmaToRE2(pattern)), syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	if !genRegex(re.Simplify(), salt, rep, &b, 0) {
		return "", false
	}
	s := b.String()
	if rx := t.regexp(pattern); rx != nil && !rx.MatchString(s) {
		return "", false
	}
	return s, true
}

func genRegex(re *syntax.Regexp, salt, rep int, b *strings.Builder, depth int) bool {
	if depth > 100 || b.Len() > 4096 {
		return false
	}
	d := depth + 1
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		r, ok := pickRune(re.Rune, salt)
		if !ok {
			return false
		}
		b.WriteRune(r)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte(byte('a' + salt%26))
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
	case syntax.OpCapture:
		return genRegex(re.Sub[0], salt, rep, b, d)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		n := rep
		if re.Op == syntax.OpPlus {
			n++
		}
		if re.Op == syntax.OpQuest {
			n = min(n, 1)
		}
		for range n {
			if !genRegex(re.Sub[0], salt, rep, b, d) {
				return false
			}
		}
	case syntax.OpRepeat:
		n := re.Min + rep
		if re.Max >= 0 && n > re.Max {
			n = re.Max
		}
		for range n {
			if !genRegex(re.Sub[0], salt, rep, b, d) {
				return false
			}
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !genRegex(s, salt, rep, b, d) {
				return false
			}
		}
	case syntax.OpAlternate:
		return genRegex(re.Sub[salt%len(re.Sub)], salt, rep, b, d)
	default:
		return false
	}
	return true
}

// pickRune picks a printable rune of a class (pairs of lo, hi), preferring
// letters and digits, the salt-th one when there are several.
func pickRune(ranges []rune, salt int) (rune, bool) {
	var good []rune
	for i := 0; i+1 < len(ranges) && len(good) < 64; i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && len(good) < 64; r++ {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				good = append(good, r)
			}
		}
	}
	if len(good) == 0 {
		for i := 0; i+1 < len(ranges) && len(good) < 64; i += 2 {
			for r := ranges[i]; r <= ranges[i+1] && len(good) < 64; r++ {
				if unicode.IsPrint(r) && r != '"' && r != '\\' {
					good = append(good, r)
				}
			}
		}
	}
	if len(good) == 0 {
		return 0, false
	}
	return good[salt%len(good)], true
}

// stripLookarounds removes (?=...), (?!...), (?<=...) and (?<!...) groups,
// which RE2 lacks: what is left generates candidates a lookaround may still
// reject.
func stripLookarounds(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			b.WriteString(p[i : i+2])
			i++
			continue
		}
		if strings.HasPrefix(p[i:], "(?=") || strings.HasPrefix(p[i:], "(?!") || strings.HasPrefix(p[i:], "(?<=") || strings.HasPrefix(p[i:], "(?<!") {
			depth := 0
			j := i
			for ; j < len(p); j++ {
				switch p[j] {
				case '\\':
					j++
				case '(':
					depth++
				case ')':
					depth--
				}
				if depth == 0 {
					break
				}
			}
			i = j
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
