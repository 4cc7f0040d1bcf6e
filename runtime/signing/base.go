package signing

import (
	"strconv"
	"strings"
)

// Derived components the profile covers; header fields are covered by
// their lowercase names.
const (
	compMethod     = "@method"
	compTargetURI  = "@target-uri"
	compAuthority  = "@authority"
	compType       = "content-type"
	compDigest     = "content-digest"
	compParamsLine = "@signature-params"
)

// fieldValue is the value of a covered header field (RFC 9421 §2.1): its
// field lines, each trimmed, joined with ", ". ok is false when the field is
// absent.
func fieldValue(h map[string][]string, name string) (string, bool) {
	vals := headerValues(h, name)
	if len(vals) == 0 {
		return "", false
	}
	if len(vals) == 1 {
		return strings.TrimSpace(vals[0]), true
	}
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strings.TrimSpace(v))
	}
	return b.String(), true
}

// headerValues looks a field up by its canonical key first (http.Header's
// form), then case-insensitively.
func headerValues(h map[string][]string, name string) []string {
	if vals, ok := h[canonicalKey(name)]; ok {
		return vals
	}
	for k, vals := range h {
		if strings.EqualFold(k, name) {
			return vals
		}
	}
	return nil
}

// canonicalKey is textproto's canonical MIME header key for the ASCII
// names the profile uses.
func canonicalKey(s string) string {
	b := []byte(s)
	upper := true
	for i, c := range b {
		if upper && 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		} else if !upper && 'A' <= c && c <= 'Z' {
			b[i] = c - 'A' + 'a'
		}
		upper = c == '-'
	}
	return string(b)
}

// appendBase writes the RFC 9421 §2.5 signature base: one line per covered
// component in the order covered, then the @signature-params line, joined
// by LF with no trailing newline.
func appendBase(b []byte, components []string, values []string, params []byte) []byte {
	for i, c := range components {
		b = strconv.AppendQuote(b, c)
		b = append(b, ": "...)
		b = append(b, values[i]...)
		b = append(b, '\n')
	}
	b = append(b, `"@signature-params": `...)
	return append(b, params...)
}
