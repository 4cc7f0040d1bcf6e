package discovery

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

// Fetch budgets (security.mdx "Quickstart: implement a brand_json_url-based
// verifier"): connect 5 s, 10 s in all, and a body cap per document.
const (
	DefaultConnectTimeout = 5 * time.Second
	DefaultTimeout        = 10 * time.Second
	MaxJWKSBytes          = 64 << 10
	MaxBrandJSONBytes     = 256 << 10
	MaxRevocationBytes    = 256 << 10
)

// Fetcher fetches counterparty-controlled documents (JWKS, brand.json,
// revocation lists) under the SSRF rules of security.mdx "Webhook URL
// validation": https only, no userinfo, no redirects followed, the host
// resolved once and every address checked (no loopback, private,
// link-local or reserved address) and the connection made to the checked
// address, time and size caps. The zero value is ready to use; it is safe
// for concurrent use.
type Fetcher struct {
	// AllowLoopback lets fetches reach loopback addresses, for tests
	// against httptest's TLS servers. Never set it in production.
	AllowLoopback bool
	// TLSConfig is the client's TLS configuration (tests: the test
	// server's roots); nil is the system's.
	TLSConfig *tls.Config
	// ConnectTimeout and Timeout bound the connection and the whole fetch;
	// 0 is DefaultConnectTimeout and DefaultTimeout.
	ConnectTimeout, Timeout time.Duration

	// resolve looks a host up; tests replace it so that no test asks DNS.
	resolve func(ctx context.Context, host string) ([]netip.Addr, error)

	once   sync.Once
	client *http.Client
}

// FetchError is a fetch that failed, and why.
type FetchError struct {
	URL  string
	Kind FetchErrorKind
	// Status is the HTTP status, when there was a response.
	Status int
	Err    error
}

// FetchErrorKind sorts fetch failures into the spec's codes.
type FetchErrorKind uint8

const (
	// Untrusted: the URL or its address breaks the SSRF rules (not https,
	// userinfo, an internal address, a redirect).
	Untrusted FetchErrorKind = iota + 1
	// Unavailable: the server could not be reached or did not answer 200
	// in time: transient.
	Unavailable
	// TooLarge: the document is over its cap.
	TooLarge
)

func (k FetchErrorKind) String() string {
	return [...]string{"", "untrusted", "unavailable", "too large"}[k]
}

func (e *FetchError) Error() string {
	s := "discovery: fetching " + untrusted.SanitizeTruncate(e.URL, 256) + ": " + e.Kind.String()
	if e.Status != 0 {
		s += " (HTTP " + strconv.Itoa(e.Status) + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FetchError) Unwrap() error { return e.Err }

var errRedirect = errors.New("redirects are not followed")

func (f *Fetcher) init() {
	f.once.Do(func() {
		connect := f.ConnectTimeout
		if connect <= 0 {
			connect = DefaultConnectTimeout
		}
		dialer := &net.Dialer{Timeout: connect}
		resolve := f.resolve
		if resolve == nil {
			resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
				return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
			}
		}
		policy := untrusted.PushURLPolicy{AllowLoopback: f.AllowLoopback}
		dial := func(ctx context.Context, network, address string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(address)
			if err != nil {
				return nil, err
			}
			addrs := []netip.Addr{}
			if a, err := netip.ParseAddr(host); err == nil {
				addrs = append(addrs, a)
			} else if addrs, err = resolve(ctx, host); err != nil {
				return nil, err
			}
			if len(addrs) == 0 {
				return nil, fmt.Errorf("%s resolves to no address", host)
			}
			// Every address the name has must be public: the one dialled is
			// one of them, chosen here, so DNS cannot rebind in between.
			for _, a := range addrs {
				if err := untrusted.CheckPushAddr(a, policy); err != nil {
					return nil, &FetchError{Kind: Untrusted, Err: fmt.Errorf("%s resolves to %s: %w", host, a, err)}
				}
			}
			return dialer.DialContext(ctx, network, net.JoinHostPort(addrs[0].Unmap().String(), port))
		}
		f.client = &http.Client{
			Transport: &http.Transport{
				Proxy:                 nil, // the connection goes to the checked address, never through a proxy
				DialContext:           dial,
				TLSClientConfig:       f.TLSConfig,
				TLSHandshakeTimeout:   connect,
				ResponseHeaderTimeout: f.timeout(),
				MaxIdleConnsPerHost:   2,
				IdleConnTimeout:       30 * time.Second,
				ForceAttemptHTTP2:     true,
			},
			CheckRedirect: func(*http.Request, []*http.Request) error { return errRedirect },
		}
	})
}

func (f *Fetcher) timeout() time.Duration {
	if f.Timeout > 0 {
		return f.Timeout
	}
	return DefaultTimeout
}

// Document is a fetched document.
type Document struct {
	Body      []byte
	Header    http.Header
	Status    int // 200, or 304 for a conditional fetch that was not modified
	FetchedAt time.Time
}

// Get fetches rawURL, refusing a body over maxBytes. hdr adds request
// headers (If-None-Match for conditional fetches); a 304 answer to one is a
// Document with Status 304 and no body.
func (f *Fetcher) Get(ctx context.Context, rawURL string, maxBytes int64, hdr http.Header) (*Document, error) {
	fail := func(k FetchErrorKind, status int, err error) (*Document, error) {
		return nil, &FetchError{URL: rawURL, Kind: k, Status: status, Err: err}
	}
	u, err := url.Parse(rawURL)
	switch {
	case err != nil:
		return fail(Untrusted, 0, err)
	case u.Scheme != "https":
		return fail(Untrusted, 0, errors.New("not https"))
	case u.User != nil:
		return fail(Untrusted, 0, errors.New("the URL carries userinfo"))
	case u.Hostname() == "":
		return fail(Untrusted, 0, errors.New("the URL has no host"))
	}
	if _, err := untrusted.CheckPushURL(rawURL, untrusted.PushURLPolicy{AllowLoopback: f.AllowLoopback}); err != nil {
		return fail(Untrusted, 0, err)
	}
	f.init()
	ctx, cancel := context.WithTimeout(ctx, f.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return fail(Untrusted, 0, err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		var fe *FetchError
		switch {
		case errors.As(err, &fe):
			fe.URL = rawURL
			return nil, fe
		case errors.Is(err, errRedirect):
			return fail(Untrusted, 0, err)
		}
		return fail(Unavailable, 0, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified && hdr != nil:
		return &Document{Header: resp.Header, Status: resp.StatusCode, FetchedAt: time.Now()}, nil
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return fail(Untrusted, resp.StatusCode, errRedirect)
	case resp.StatusCode != http.StatusOK:
		return fail(Unavailable, resp.StatusCode, nil)
	case resp.ContentLength > maxBytes:
		return fail(TooLarge, resp.StatusCode, fmt.Errorf("%d bytes, over the %d-byte cap", resp.ContentLength, maxBytes))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return fail(Unavailable, resp.StatusCode, err)
	}
	if int64(len(body)) > maxBytes {
		return fail(TooLarge, resp.StatusCode, fmt.Errorf("over the %d-byte cap", maxBytes))
	}
	return &Document{Body: body, Header: resp.Header, Status: resp.StatusCode, FetchedAt: time.Now()}, nil
}

// canonicalAuthority is a URL's (or bare host's) authority as AdCP's URL
// canonicalization writes it (lowercase, A-labels, no default port), for
// origin comparisons.
func canonicalAuthority(raw string) (string, error) {
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	_, a, err := signing.CanonicalURL(raw)
	return a, err
}

// hostOf is an authority without its port.
func hostOf(authority string) string {
	if h, _, err := net.SplitHostPort(authority); err == nil {
		return h
	}
	return authority
}
