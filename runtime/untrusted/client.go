package untrusted

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// ClientOptions configure NewHTTPClient.
type ClientOptions struct {
	// Policy says which addresses may be connected to (the zero value:
	// public addresses only).
	Policy PushURLPolicy
	// LoopbackOnly refuses any host but a loopback one before it is
	// resolved, so a test that meets a public URL sends nothing off the
	// machine, not even a DNS query. For tests only; it needs
	// Policy.AllowLoopback to connect anywhere.
	LoopbackOnly bool
	// RootCAs verify servers' certificates instead of the system's roots
	// (a test's own certificate authority); nil uses the system's.
	RootCAs *x509.CertPool
}

// NewHTTPClient is an HTTP client for URLs a counterparty supplied (a
// buyer's webhook, the governance agent it registered): it connects only
// to addresses opts.Policy allows, checked on each resolved address at
// connect time (so a host name cannot resolve to an internal address),
// and neither uses a proxy nor follows redirects.
func NewHTTPClient(opts ClientOptions) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, Control: dialControl(opts.Policy)}
	dial := dialer.DialContext
	if opts.LoopbackOnly {
		dial = func(ctx context.Context, network, address string) (net.Conn, error) {
			if !isLoopbackHost(address) {
				return nil, fmt.Errorf("untrusted: dial %s: %w", address, ErrNotLoopback)
			}
			return dialer.DialContext(ctx, network, address)
		}
	}
	t := &http.Transport{
		Proxy:                 nil,
		DialContext:           dial,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
	}
	if opts.RootCAs != nil {
		t.TLSClientConfig = &tls.Config{RootCAs: opts.RootCAs, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{
		Transport:     t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// ErrNotLoopback is a LoopbackOnly client refusing a host.
var ErrNotLoopback = errors.New("not a loopback host (LoopbackOnly)")

// isLoopbackHost reports a host:port whose host is "localhost" or a
// loopback address literal.
func isLoopbackHost(address string) bool {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	addr, err := netip.ParseAddr(host)
	return err == nil && addr.Unmap().IsLoopback()
}

// dialControl refuses a connection to an address the policy forbids.
func dialControl(p PushURLPolicy) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return fmt.Errorf("untrusted: dial %s: %w", address, err)
		}
		addr, err := netip.ParseAddr(host)
		if err != nil {
			return fmt.Errorf("untrusted: dial %s: %w", address, err)
		}
		if err := CheckPushAddr(addr, p); err != nil {
			return fmt.Errorf("untrusted: refusing to connect to %s: %w", address, err)
		}
		return nil
	}
}
