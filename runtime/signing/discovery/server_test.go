package discovery

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
	"time"
)

// testNames are the hosts the test server answers for; the fetcher's
// resolver maps each to the server's loopback address, so no test asks DNS
// or leaves the machine.
var testNames = []string{"agent.seller.example", "www.seller.example", "keys.seller.example", "agent.other.example", "keys.other.example"}

// site is a real TLS server on loopback with a certificate for testNames,
// routing by Host, and a Fetcher that reaches it.
type site struct {
	srv     *httptest.Server
	fetcher *Fetcher
	port    string

	mu       sync.Mutex
	handlers map[string]http.HandlerFunc // "host/path" → handler
	hits     map[string]int
}

func newSite(t *testing.T) *site {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "adcpgen discovery test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		DNSNames:              testNames,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	s := &site{handlers: map[string]http.HandlerFunc{}, hits: map[string]int{}}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.Host)
		k := host + r.URL.Path
		s.mu.Lock()
		h := s.handlers[k]
		s.hits[k]++
		s.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	s.srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	s.srv.StartTLS()
	t.Cleanup(s.srv.Close)
	_, s.port, _ = net.SplitHostPort(s.srv.Listener.Addr().String())
	s.fetcher = &Fetcher{AllowLoopback: true, TLSConfig: &tls.Config{RootCAs: pool}, resolve: s.resolve}
	return s
}

func (s *site) resolve(_ context.Context, host string) ([]netip.Addr, error) {
	for _, n := range testNames {
		if n == host {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
	}
	return nil, &net.DNSError{Err: "no such host (test resolver)", Name: host, IsNotFound: true}
}

// url is https://host:port/path on the test server.
func (s *site) url(host, path string) string { return "https://" + host + ":" + s.port + path }

func (s *site) handle(host, path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[host+path] = h
}

func (s *site) serve(host, path, body string) {
	s.handle(host, path, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	})
}

func (s *site) count(host, path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[host+path]
}
