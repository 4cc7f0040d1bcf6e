package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/signing"
)

// cancelNoticeGrace is how long an MCP session stays open after the
// command's context ended, so go-sdk's notifications/cancelled (sent from
// a goroutine once a call gives up) reaches the seller: closing first
// drops it, leaves the seller working and makes Close wait 5 s for the
// abandoned call's stream.
const cancelNoticeGrace = 100 * time.Millisecond

// dialAgent connects to the agent over transport ("mcp" or "a2a") and
// returns the buyer.Transport and how to close it (ctx: the command's
// context). Every failure is a transport failure: nothing reached a tool
// yet.
func dialAgent(ctx context.Context, transport, agent string, hc *http.Client) (buyer.Transport, func(context.Context), error) {
	if transport == "mcp" {
		s, err := mcpclient.ConnectHTTP(ctx, agent, hc, mcpclient.ConnectOptions{})
		if err != nil {
			return nil, nil, fmt.Errorf("connecting to %s over MCP: %w", agent, err)
		}
		return s, func(ctx context.Context) {
			if ctx.Err() != nil {
				time.Sleep(cancelNoticeGrace)
			}
			s.Close()
		}, nil
	}
	c, err := dialA2A(ctx, agent, hc)
	if err != nil {
		return nil, nil, fmt.Errorf("connecting to %s over A2A: %w", agent, err)
	}
	return c, func(context.Context) { c.Close() }, nil
}

// dialA2A reads the agent card: at the URL itself when it names a .json
// file, else under the URL (URL/.well-known/agent-card.json), else, when
// that is not found, at the URL's origin (sellers serving A2A at /a2a
// publish the card at the root).
func dialA2A(ctx context.Context, agent string, hc *http.Client) (*a2aclient.Conn, error) {
	u, err := url.Parse(agent)
	if err != nil {
		return nil, err
	}
	origin := u.Scheme + "://" + u.Host
	if strings.HasSuffix(u.Path, ".json") {
		card, err := agentcard.NewResolver(hc).Resolve(ctx, origin, agentcard.WithPath(u.Path))
		if err != nil {
			return nil, fmt.Errorf("agent card %s: %w", agent, err)
		}
		return a2aclient.NewFromCard(ctx, card, hc)
	}
	c, err := a2aclient.Dial(ctx, agent, hc)
	var notOK *agentcard.ErrStatusNotOK
	if err != nil && errors.As(err, &notOK) && notOK.StatusCode == http.StatusNotFound && strings.Trim(u.Path, "/") != "" {
		if c, err2 := a2aclient.Dial(ctx, origin, hc); err2 == nil {
			return c, nil
		}
	}
	return c, err
}

// header is one --header K=V.
type header struct{ key, value string }

// parseHeaders checks each K=V: K an HTTP token, V without line breaks.
func parseHeaders(list []string) ([]header, error) {
	var out []header
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("--header %q: want K=V", kv)
		}
		for i := 0; i < len(k); i++ {
			if !isTokenChar(k[i]) {
				return nil, fmt.Errorf("--header %q: %q is not allowed in a header name", kv, k[i])
			}
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return nil, fmt.Errorf("--header %q: a value may not hold a line break", k)
		}
		out = append(out, header{http.CanonicalHeaderKey(k), strings.TrimSpace(v)})
	}
	return out, nil
}

// isTokenChar reports a character of an HTTP token (RFC 9110 tchar).
func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// headerClient is an http.Client that sends headers with every request,
// to the agent card, the MCP endpoint and the A2A endpoint alike, and
// signs the calls signer says to (nil: none) after the headers are set.
func headerClient(headers []header, signer *signing.CallSigner) *http.Client {
	var base http.RoundTripper = http.DefaultTransport
	if signer != nil {
		base = signer.Transport(base)
	}
	if len(headers) == 0 {
		return &http.Client{Transport: base}
	}
	return &http.Client{Transport: &headerTransport{base: base, headers: headers}}
}

type headerTransport struct {
	base    http.RoundTripper
	headers []header
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	for _, h := range t.headers {
		r.Header.Set(h.key, h.value)
	}
	return t.base.RoundTrip(r)
}
