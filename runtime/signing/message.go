package signing

import (
	"net/http"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
)

// Message is one HTTP request as a signature covers it: the raw parts a
// verifier received, or a signer is about to send. Body is the exact bytes
// on the wire; nothing here is ever re-serialized.
type Message struct {
	Method string
	// URL is the absolute target URI: scheme://authority/path?query, as
	// the request carried it.
	URL string
	// Authority is the request's authority as received (HTTP/2 :authority,
	// else the HTTP/1.1 Host header); "" takes it from URL. A verifier
	// refuses a request whose canonical Authority differs from the
	// authority of its canonical URL (request_target_uri_malformed).
	Authority string
	Header    http.Header
	Body      []byte
}

// MessageFromRequest is the Message of a request a server received, with
// its body already read (the exact bytes): the target URI is rebuilt from
// scheme, the Host header and the request target as received. scheme is
// "https" when the connection was TLS, else the scheme argument (the one
// clients use, when TLS ends in front of the server; "" means "https").
func MessageFromRequest(r *http.Request, body []byte, scheme string) *Message {
	switch {
	case r.TLS != nil:
		scheme = "https"
	case scheme == "":
		scheme = "https"
	}
	target := r.RequestURI
	var url string
	switch {
	case strings.HasPrefix(target, "/"):
		url = scheme + "://" + r.Host + target
	case target != "" && target != "*":
		url = target // absolute-form
	default:
		url = r.URL.String()
	}
	return &Message{Method: r.Method, URL: url, Authority: r.Host, Header: r.Header, Body: body}
}

// outgoingMessage is the Message of a request a client is about to send:
// the URL and Host exactly as net/http writes them on the wire.
func outgoingMessage(r *http.Request, body []byte) *Message {
	host := r.Host
	if host == "" {
		host = r.URL.Host
	}
	return &Message{
		Method: r.Method,
		URL:    r.URL.Scheme + "://" + host + r.URL.RequestURI(),
		Header: r.Header,
		Body:   body,
	}
}

// VerifiedSigner is who signed a request that passed the checklist
// (security.mdx: verifiers SHOULD record verified_signer { keyid,
// agent_url, verified_at }). AgentURL comes from the key source (the
// brand.json agents[] entry whose jwks_uri held the key), never from the
// request.
type VerifiedSigner struct {
	KeyID      string
	AgentURL   string
	Algorithm  keys.Algorithm
	Label      string
	Nonce      string
	Created    time.Time
	Expires    time.Time
	VerifiedAt time.Time
}
