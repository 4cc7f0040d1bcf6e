package naming

import (
	"slices"
	"strings"
	"unicode"
)

// initialisms are written in capitals in Go names: Go's own list, plus the
// ad-tech, media and brand initialisms as the AdCP schemas spell them in
// titles and enums (DAAST, ID5, UID2, HDR10).
var initialisms = map[string]string{
	"acl": "ACL", "api": "API", "ascii": "ASCII", "cpu": "CPU", "css": "CSS", "dns": "DNS", "eof": "EOF",
	"guid": "GUID", "html": "HTML", "http": "HTTP", "https": "HTTPS", "id": "ID", "ip": "IP", "json": "JSON",
	"qps": "QPS", "ram": "RAM", "rpc": "RPC", "sla": "SLA", "smtp": "SMTP", "sql": "SQL", "ssh": "SSH",
	"tcp": "TCP", "tls": "TLS", "ttl": "TTL", "udp": "UDP", "ui": "UI", "uid": "UID", "uuid": "UUID",
	"uri": "URI", "url": "URL", "utf8": "UTF8", "vm": "VM", "xml": "XML", "xss": "XSS", "ids": "IDs",
	"urls": "URLs", "uris": "URIs", "apis": "APIs",
	// Ad tech.
	"adcp": "AdCP", "cpm": "CPM", "vcpm": "VCPM", "cpc": "CPC", "cpcv": "CPCV", "cpv": "CPV", "cpa": "CPA",
	"cpp": "CPP", "ctv": "CTV", "dooh": "DOOH", "gtin": "GTIN", "iab": "IAB", "vast": "VAST", "vpaid": "VPAID",
	"mraid": "MRAID", "ssp": "SSP", "dsp": "DSP", "sdk": "SDK", "mcp": "MCP", "a2a": "A2A", "ctr": "CTR",
	"roas": "ROAS", "kpi": "KPI", "iso": "ISO", "hmac": "HMAC", "sha256": "SHA256", "jwt": "JWT", "jwk": "JWK",
	"jwks": "JWKS", "oauth": "OAuth", "gdpr": "GDPR", "ccpa": "CCPA", "tcf": "TCF", "gpp": "GPP",
	"daast": "DAAST", "omid": "OMID", "id5": "ID5", "uid2": "UID2", "euid": "EUID", "hdr": "HDR", "hdr10": "HDR10",
	"sdr": "SDR", "html5": "HTML5", "ai": "AI", "tv": "TV", "ott": "OTT", "ooh": "OOH", "pii": "PII", "crm": "CRM",
	"cta": "CTA", "dma": "DMA", "ugc": "UGC", "ivt": "IVT", "rfp": "RFP", "wcag": "WCAG", "sku": "SKU", "rss": "RSS",
	"csv": "CSV", "pdf": "PDF", "svg": "SVG", "gif": "GIF", "png": "PNG", "jpeg": "JPEG", "jpg": "JPG",
	"mp3": "MP3", "mp4": "MP4", "ssai": "SSAI", "csai": "CSAI", "hls": "HLS", "drm": "DRM", "mime": "MIME",
}

// Words splits s into words at non-alphanumerics, lower-to-upper changes
// and the end of an acronym ("HTTPServer" -> HTTP, Server).
func Words(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			switch {
			case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush()
			case unicode.IsDigit(r) != unicode.IsDigit(prev) && unicode.IsDigit(prev):
				// Digits end a word: "v2beta" is "v2" "beta", "16x9" is "16" "x9".
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// GoName builds an exported Go identifier from any string: words are
// capitalised, initialisms written in capitals, and adjacent numbers kept
// apart with an underscore ("16:9" -> "16_9"). It may start with a digit;
// callers prefix such names.
func GoName(s string) string {
	var b strings.Builder
	prevDigit := false
	words := mergeInitialisms(Words(s))
	for _, w := range words {
		lw := strings.ToLower(w)
		startsDigit := unicode.IsDigit([]rune(w)[0])
		if prevDigit && startsDigit {
			b.WriteByte('_')
		}
		if up, ok := initialisms[lw]; ok {
			b.WriteString(up)
		} else if len(words) == 1 && isCode(w) {
			b.WriteString(w)
		} else {
			r := []rune(lw)
			r[0] = unicode.ToUpper(r[0])
			b.WriteString(string(r))
		}
		last := []rune(w)
		prevDigit = unicode.IsDigit(last[len(last)-1])
	}
	out := b.String()
	// Keep only ASCII letters, digits and underscores: Go accepts Unicode
	// letters, but generated APIs should be typeable anywhere.
	clean := make([]byte, 0, len(out))
	for i := 0; i < len(out); i++ {
		c := out[i]
		if c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			clean = append(clean, c)
		}
	}
	return string(clean)
}

// isCode reports a two-letter name written in capitals: a country, region
// or language code (US, GB, EU), kept as written. Words of a longer
// SCREAMING_CASE name ("OUT_OF_BAND") are not codes.
func isCode(w string) bool {
	return len(w) == 2 && w[0] >= 'A' && w[0] <= 'Z' && w[1] >= 'A' && w[1] <= 'Z'
}

// mergeInitialisms joins a word and a following all-capitals word when
// together they spell an initialism written in mixed case ("Ad" "CP" is
// "AdCP", not "AdCp").
func mergeInitialisms(words []string) []string {
	out := words[:0:0]
	for i := 0; i < len(words); i++ {
		if i+1 < len(words) && words[i+1] == strings.ToUpper(words[i+1]) {
			if up, ok := initialisms[strings.ToLower(words[i]+words[i+1])]; ok && up != strings.ToUpper(up) {
				out = append(out, up)
				i++
				continue
			}
		}
		out = append(out, words[i])
	}
	return out
}

// Singular returns the singular of a name's last word ("Issues" -> "Issue",
// "Categories" -> "Category"), or the name unchanged when it does not look
// plural.
func Singular(name string) string {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(name, "IDs"), strings.HasSuffix(name, "URLs"), strings.HasSuffix(name, "URIs"), strings.HasSuffix(name, "APIs"):
		return name[:len(name)-1]
	case strings.HasSuffix(lower, "ies") && len(name) > 4:
		return name[:len(name)-3] + "y"
	case strings.HasSuffix(lower, "sses"), strings.HasSuffix(lower, "xes"), strings.HasSuffix(lower, "ches"), strings.HasSuffix(lower, "shes"):
		return name[:len(name)-2]
	case strings.HasSuffix(lower, "ss"), strings.HasSuffix(lower, "us"), strings.HasSuffix(lower, "is"), strings.HasSuffix(lower, "news"):
		return name
	case strings.HasSuffix(lower, "s") && len(name) > 3:
		return name[:len(name)-1]
	}
	return name
}

// Repeats reports a name that says a word, or a run of words, twice in a
// row, ignoring case ("ClaimClaim", "PostalAreaPostalAreaUS").
func Repeats(name string) bool {
	w := Words(name)
	for i := range w {
		w[i] = strings.ToLower(w[i])
	}
	for k := 1; 2*k <= len(w); k++ {
		for i := 0; i+2*k <= len(w); i++ {
			if slices.Equal(w[i:i+k], w[i+k:i+2*k]) {
				return true
			}
		}
	}
	return false
}
