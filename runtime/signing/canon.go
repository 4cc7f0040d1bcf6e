package signing

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// idnaProfile is UTS-46 Nontransitional processing with CheckHyphens,
// CheckBidi and UseSTD3ASCIIRules, the mode url-canonicalization.mdx step
// 2 pins (ASCII letters are lowercased by its mapping).
var idnaProfile = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.CheckHyphens(true),
	idna.BidiRule(),
	idna.StrictDomainName(true),
	idna.VerifyDNSLength(true),
)

// CanonicalURL applies AdCP's URL canonicalization (url-canonicalization.mdx,
// the eight steps) to an absolute http(s) URL and returns the
// @target-uri and @authority values a signature covers. It fails on a
// malformed authority (no host, userinfo without a host, an unclosed or
// bare IPv6 literal, a zone identifier, an empty DNS label, more than one
// trailing dot), on characters a URL cannot carry, and on schemes other
// than http and https; the error's code is request_target_uri_malformed.
//
// A host written with U-labels is converted to A-labels here, as a signer
// must before signing; a verifier refuses such a host on the wire before it
// canonicalizes (see Verifier).
func CanonicalURL(raw string) (targetURI, authority string, err error) {
	scheme, rest, ok := strings.Cut(raw, ":")
	if !ok || scheme == "" {
		return "", "", uriError("URL has no scheme")
	}
	scheme = strings.ToLower(scheme)
	if scheme != "https" && scheme != "http" {
		return "", "", uriError("scheme " + strconv.Quote(scheme) + " is not http or https")
	}
	if !strings.HasPrefix(rest, "//") {
		return "", "", uriError("URL has no authority")
	}
	rest = rest[2:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, err = canonicalAuthority(rest[:end], scheme)
	if err != nil {
		return "", "", err
	}
	rest = rest[end:]
	if i := strings.IndexByte(rest, '#'); i >= 0 { // step 8
		rest = rest[:i]
	}
	path, query, hasQuery := strings.Cut(rest, "?")
	path, err = normalizePercent(path, "path")
	if err != nil {
		return "", "", err
	}
	path = removeDotSegments(path) // step 5, after percent-decoding unreserved dots
	if path == "" {
		path = "/"
	}
	var b strings.Builder
	b.Grow(len(scheme) + 3 + len(authority) + len(path) + len(query) + 1)
	b.WriteString(scheme)
	b.WriteString("://")
	b.WriteString(authority)
	b.WriteString(path)
	if hasQuery { // step 7: a trailing "?" is kept
		query, err = normalizePercent(query, "query")
		if err != nil {
			return "", "", err
		}
		b.WriteByte('?')
		b.WriteString(query)
	}
	return b.String(), authority, nil
}

// CanonicalAuthority canonicalizes a Host header (or :authority) value the
// way CanonicalURL canonicalizes a URL's authority, for the scheme the
// request arrived on.
func CanonicalAuthority(host, scheme string) (string, error) {
	return canonicalAuthority(host, strings.ToLower(scheme))
}

func uriError(reason string) *Rejection {
	return &Rejection{Code: CodeTargetURIMalformed, Where: "@target-uri", Reason: reason}
}

// canonicalAuthority applies steps 2 to 4 to an authority.
func canonicalAuthority(a, scheme string) (string, error) {
	if i := strings.LastIndexByte(a, '@'); i >= 0 { // step 3
		a = a[i+1:]
		if a == "" {
			return "", uriError("authority has userinfo but no host")
		}
	}
	var host, port string
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return "", uriError("IPv6 literal has no closing bracket")
		}
		lit := a[1:end]
		if strings.IndexByte(lit, '%') >= 0 {
			return "", uriError("IPv6 zone identifiers are node-local and cannot be signed")
		}
		addr, err := netip.ParseAddr(lit)
		if err != nil || !addr.Is6() {
			return "", uriError("bracketed host is not an IPv6 address")
		}
		host = "[" + strings.ToLower(lit) + "]"
		switch rest := a[end+1:]; {
		case rest == "":
		case rest[0] == ':':
			port = rest[1:]
		default:
			return "", uriError("unexpected bytes after the IPv6 literal")
		}
	} else {
		h, p, hasPort := strings.Cut(a, ":")
		if hasPort {
			if strings.IndexByte(p, ':') >= 0 {
				return "", uriError("IPv6 literal is not bracketed")
			}
			port = p
		}
		var err error
		if host, err = canonicalHost(h); err != nil {
			return "", err
		}
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 0 || n > 65535 || strings.IndexFunc(port, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
			return "", uriError("port " + strconv.Quote(port) + " is not a number from 0 to 65535")
		}
		if (scheme == "https" && n == 443) || (scheme == "http" && n == 80) { // step 4
			return host, nil
		}
		return host + ":" + strconv.Itoa(n), nil
	}
	return host, nil
}

// canonicalHost applies step 2 to a registered name or IPv4 address.
func canonicalHost(h string) (string, error) {
	if h == "" {
		return "", uriError("authority has no host")
	}
	if strings.IndexByte(h, '%') >= 0 {
		return "", uriError("percent-encoded host")
	}
	if !utf8.ValidString(h) {
		return "", uriError("host is not UTF-8")
	}
	if a, ok := plainHost(h); ok {
		return a, nil
	}
	ascii, err := idnaProfile.ToASCII(h)
	if err != nil {
		return "", &Rejection{Code: CodeTargetURIMalformed, Where: "@target-uri", Reason: "host is not a valid domain name", Err: err}
	}
	// One trailing dot is the DNS root label, removed on every path; a
	// second one is an empty label.
	ascii = strings.TrimSuffix(ascii, ".")
	if ascii == "" || strings.HasSuffix(ascii, ".") || strings.Contains(ascii, "..") || strings.HasPrefix(ascii, ".") {
		return "", uriError("host has an empty DNS label")
	}
	return ascii, nil
}

// plainHost canonicalizes, without IDNA, a host that IDNA would only
// lowercase: ASCII letters, digits, hyphens and dots, in labels of 1 to 63
// bytes that neither start nor end with a hyphen nor hold one in their
// third and fourth bytes (so no A-label, which IDNA must validate), one
// trailing root dot removed. ok is false for anything else; FuzzPlainHost
// holds it to the IDNA path.
func plainHost(h string) (string, bool) {
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 {
		return "", false
	}
	lower := true
	start := 0
	for i := 0; i <= len(h); i++ {
		if i < len(h) && h[i] != '.' {
			c := h[i]
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
			case c >= 'A' && c <= 'Z':
				lower = false
			default:
				return "", false
			}
			continue
		}
		label := h[start:i]
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' ||
			len(label) >= 4 && label[2] == '-' && label[3] == '-' {
			return "", false
		}
		start = i + 1
	}
	if !lower {
		h = strings.ToLower(h)
	}
	return h, true
}

// isUnreserved is RFC 3986 §2.3.
func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

const upperHex = "0123456789ABCDEF"

// normalizePercent applies step 6: percent-encoded unreserved characters
// are decoded, other escapes get uppercase hex. Bytes a URL cannot carry
// raw (controls, space, non-ASCII) are malformed, as is a stray "%".
func normalizePercent(s, part string) (string, error) {
	if strings.IndexByte(s, '%') < 0 {
		for i := 0; i < len(s); i++ {
			if s[i] <= ' ' || s[i] >= 0x7f {
				return "", uriError(part + " holds a byte a URL cannot carry unencoded")
			}
		}
		return s, nil
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) {
				return "", uriError(part + " has a truncated percent escape")
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				return "", uriError(part + " has an invalid percent escape")
			}
			if v := hi<<4 | lo; isUnreserved(v) {
				b = append(b, v)
			} else {
				b = append(b, '%', upperHex[hi], upperHex[lo])
			}
			i += 2
		case c <= ' ' || c >= 0x7f:
			return "", uriError(part + " holds a byte a URL cannot carry unencoded")
		default:
			b = append(b, c)
		}
	}
	return string(b), nil
}

// removeDotSegments is RFC 3986 §5.2.4, which keeps empty segments: "//"
// survives byte for byte (url-canonicalization.mdx step 5).
func removeDotSegments(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	out := make([]byte, 0, len(in))
	for len(in) > 0 {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			out = popSegment(out)
		case in == "/..":
			in = "/"
			out = popSegment(out)
		case in == "." || in == "..":
			in = ""
		default:
			start := 0
			if in[0] == '/' {
				start = 1
			}
			end := strings.IndexByte(in[start:], '/')
			if end < 0 {
				end = len(in)
			} else {
				end += start
			}
			out = append(out, in[:end]...)
			in = in[end:]
		}
	}
	return string(out)
}

func popSegment(out []byte) []byte {
	i := len(out) - 1
	for i >= 0 && out[i] != '/' {
		i--
	}
	if i < 0 {
		return out[:0]
	}
	return out[:i]
}

// hasNonASCIIHost reports raw non-ASCII bytes in the authority of an
// absolute URL: a U-label on the wire, which the profile refuses rather
// than re-normalizes.
func hasNonASCIIHost(raw string) bool {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return false
	}
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	return !isASCII(rest)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
