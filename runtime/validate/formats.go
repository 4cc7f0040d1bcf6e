package validate

import (
	"net/netip"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Draft-07 formats are asserted. The corpus uses date-time, date, uri,
// uri-template, email, uuid and hostname. The library's date-time, date
// and uuid checks follow RFC 3339 / 4122 and are kept; its email check
// (RFC 5322) is kept behind an ASCII-only rule, since a non-ASCII address
// is an idn-email (RFC 6531), which the library does not check and the
// corpus does not use; uri, uri-template, hostname and regex are replaced
// by stricter or ECMA-aware checks below.

// formats returns the format checkers registered on every compiler.
func formats() map[string]func(any) bool {
	return map[string]func(any) bool{
		"uri":          stringFormat(isURI),
		"email":        stringFormat(isEmail),
		"uri-template": stringFormat(isURITemplate),
		"hostname":     stringFormat(isHostname),
		"regex": stringFormat(func(s string) bool {
			_, err := compileECMA(s)
			return err == nil
		}),
	}
}

// libraryFormats are the library's own checks this package relies on.
var libraryFormats = []string{"date-time", "date", "time", "email", "uuid", "ipv4", "ipv6", "uri-reference", "json-pointer"}

func init() {
	for _, f := range libraryFormats {
		if jsonschema.Formats[f] == nil {
			panic("jsonschema library lost format " + f)
		}
	}
}

// stringFormat applies check to strings; other types pass, as formats
// only constrain strings.
func stringFormat(check func(string) bool) func(any) bool {
	return func(v any) bool {
		s, ok := v.(string)
		return !ok || check(s)
	}
}

// isURI reports whether s is an absolute URI (RFC 3986 §4.3 plus fragment):
// ASCII only, every character allowed where it stands, valid %-escapes.
func isURI(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon < 1 || !isScheme(s[:colon]) {
		return false
	}
	rest := s[colon+1:]
	authStart, authEnd := 0, 0 // the authority's span in rest, if any
	if strings.HasPrefix(rest, "//") {
		end := strings.IndexAny(rest[2:], "/?#")
		if end < 0 {
			end = len(rest) - 2
		}
		authStart, authEnd = 2, 2+end
	}
	if strings.Count(s, "#") > 1 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case isUnreserved(c) || isSubDelim(c) || strings.IndexByte(":@/?#", c) >= 0:
		case c == '%':
			if i+2 >= len(rest) || !isHex(rest[i+1]) || !isHex(rest[i+2]) {
				return false
			}
			i += 2
		case c == '[' || c == ']': // IP literals only
			if i < authStart || i >= authEnd {
				return false
			}
		default:
			return false
		}
	}
	return authEnd == 0 || isAuthority(rest[authStart:authEnd])
}

// isAuthority checks RFC 3986 §3.2: [userinfo "@"] host [":" port], where
// host is an IP-literal in brackets (IPv6 or IPvFuture), or a reg-name or
// IPv4 address, neither of which may hold ':' or brackets. Characters were
// checked by the caller.
func isAuthority(a string) bool {
	if at := strings.LastIndexByte(a, '@'); at >= 0 {
		if strings.ContainsAny(a[:at], "@[]") {
			return false
		}
		a = a[at+1:]
	}
	host, port := a, ""
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 || !isIPLiteral(a[1:end]) {
			return false
		}
		switch rest := a[end+1:]; {
		case rest == "":
		case rest[0] == ':':
			port = rest[1:]
		default:
			return false
		}
	} else {
		if i := strings.LastIndexByte(a, ':'); i >= 0 {
			host, port = a[:i], a[i+1:]
		}
		if strings.ContainsAny(host, ":[]") {
			return false
		}
	}
	return port == "" || isDigits(port)
}

// isIPLiteral checks the inside of RFC 3986's IP-literal brackets: an IPv6
// address (no zone) or IPvFuture, "v" 1*HEXDIG "." 1*(unreserved /
// sub-delims / ":").
func isIPLiteral(h string) bool {
	if h != "" && (h[0] == 'v' || h[0] == 'V') {
		dot := strings.IndexByte(h, '.')
		if dot < 2 || dot == len(h)-1 {
			return false
		}
		for i := 1; i < dot; i++ {
			if !isHex(h[i]) {
				return false
			}
		}
		for i := dot + 1; i < len(h); i++ {
			if c := h[i]; !isUnreserved(c) && !isSubDelim(c) && c != ':' {
				return false
			}
		}
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Is6() && ip.Zone() == ""
}

// isEmail is the library's RFC 5322 addr-spec check on ASCII addresses
// only: "email" is RFC 5321's Mailbox; a UTF-8 local part or domain makes
// an idn-email.
func isEmail(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return jsonschema.Formats["email"](s)
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isAlpha(c) || i > 0 && (isDigit(c) || c == '+' || c == '-' || c == '.') {
			continue
		}
		return false
	}
	return s != ""
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}
func isSubDelim(c byte) bool { return strings.IndexByte("!$&'()*+,;=", c) >= 0 }

// isURITemplate checks RFC 6570 syntax: literals and {expressions}.
func isURITemplate(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 || !isTemplateExpression(s[i+1:i+end]) {
				return false
			}
			i += end
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		case c <= ' ' || c == 0x7F || strings.IndexByte("\"'<>\\^`|}", c) >= 0:
			return false
		}
	}
	return true
}

func isTemplateExpression(e string) bool {
	if e != "" && strings.IndexByte("+#./;?&=,!@|", e[0]) >= 0 {
		e = e[1:]
	}
	if e == "" {
		return false
	}
	for _, spec := range strings.Split(e, ",") {
		name, mod := spec, ""
		if i := strings.IndexAny(spec, ":*"); i >= 0 {
			name, mod = spec[:i], spec[i:]
		}
		if !isVarName(name) {
			return false
		}
		switch {
		case mod == "" || mod == "*":
		case mod[0] == ':':
			n := mod[1:]
			if len(n) < 1 || len(n) > 4 || n[0] == '0' || !isDigits(n) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func isVarName(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isAlpha(c) || isDigit(c) || c == '_' || c == '.':
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

// isHostname checks RFC 1123 host names: at most 253 characters (a final
// dot aside), labels of 1 to 63 letters, digits and inner hyphens.
func isHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isAlpha(c) && !isDigit(c) && c != '-' {
				return false
			}
		}
	}
	return true
}
