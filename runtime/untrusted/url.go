package untrusted

import (
	"errors"
	"net"
	"net/url"
	"strings"
)

// Reasons a seller URL is rejected; a *URLError wraps one of them.
var (
	ErrURLMalformed = errors.New("not a valid absolute URL")
	ErrURLScheme    = errors.New("scheme is not https")
	ErrURLOpaque    = errors.New("opaque URL (no //host)")
	ErrURLUserinfo  = errors.New("URL carries userinfo")
	ErrURLHost      = errors.New("host is not the seller's domain")
	ErrURLPort      = errors.New("port differs from the seller's domain")
	ErrNoDomain     = errors.New("no seller domain to check against")
)

// URLError is a rejected URL (a seller's, or a buyer's push notification
// URL). URL is the sanitised, truncated input.
type URLError struct {
	URL    string
	Reason error
	// what names the URL in messages; "" is a seller URL.
	what string
}

func (e *URLError) Error() string {
	what := e.what
	if what == "" {
		what = "seller URL"
	}
	return what + ` "` + e.URL + `" rejected: ` + e.Reason.Error()
}

func (e *URLError) Unwrap() error { return e.Reason }

// CheckSellerURL validates a URL a seller sent (details.setup_url,
// details.policy_url, an A2A FilePart's uri) before anyone follows it: the
// scheme must be https (so http, javascript, data, file and every other
// scheme fail), the URL must be hierarchical with a host, carry no userinfo
// (not even an empty "@"), and its host must equal sellerDomain exactly,
// ignoring ASCII case; subdomains do not match. A port is accepted only when
// sellerDomain names the same one (443 is the default). sellerDomain is a
// host name, optionally with ":port".
func CheckSellerURL(raw, sellerDomain string) (*url.URL, error) {
	fail := func(reason error) (*url.URL, error) {
		return nil, &URLError{URL: SanitizeTruncate(raw, 256), Reason: reason}
	}
	wantHost, wantPort, err := splitDomain(sellerDomain)
	if err != nil {
		return fail(err)
	}
	u, reason := parseHierarchical(raw, false)
	if reason != nil {
		return fail(reason)
	}
	host := u.Hostname()
	if host == "" || !strings.EqualFold(host, wantHost) {
		return fail(ErrURLHost)
	}
	port := u.Port()
	if port == "" {
		port = "443"
	}
	if strings.HasSuffix(u.Host, ":") || port != wantPort {
		return fail(ErrURLPort)
	}
	return u, nil
}

// parseHierarchical is where every URL check starts: raw must parse as an
// absolute URL with an https scheme (or http, with allowHTTP), written
// hierarchically (scheme://authority) and carrying no userinfo, not even an
// empty "@". It returns the reason for a refusal.
func parseHierarchical(raw string, allowHTTP bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return nil, ErrURLMalformed
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "https" && !(allowHTTP && scheme == "http") {
		return nil, ErrURLScheme
	}
	if u.Opaque != "" || !strings.HasPrefix(strings.ToLower(raw), scheme+"://") {
		return nil, ErrURLOpaque
	}
	if u.User != nil || strings.Contains(rawAuthority(raw), "@") {
		return nil, ErrURLUserinfo
	}
	return u, nil
}

// rawAuthority is the text between "//" and the next '/', '?' or '#'.
func rawAuthority(raw string) string {
	i := strings.Index(raw, "//")
	if i < 0 {
		return ""
	}
	a := raw[i+2:]
	if j := strings.IndexAny(a, "/?#"); j >= 0 {
		a = a[:j]
	}
	return a
}

func splitDomain(d string) (host, port string, err error) {
	d = strings.TrimSpace(d)
	if d == "" {
		return "", "", ErrNoDomain
	}
	if strings.ContainsAny(d, "/@?#") {
		return "", "", errors.New("seller domain " + `"` + SanitizeTruncate(d, 256) + `"` + " is not a host name")
	}
	if h, p, err := net.SplitHostPort(d); err == nil {
		return h, p, nil
	}
	return strings.Trim(d, "[]"), "443", nil
}
