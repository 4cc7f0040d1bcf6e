package mcpserver

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/adcpgen/adcpgen/runtime/seller"
)

// OAuthOptions configures OAuth 2.0 bearer tokens through go-sdk's auth
// package.
type OAuthOptions struct {
	// Verifier checks a token with the seller's issuer (introspection,
	// JWT verification) and returns its TokenInfo; UserID must name the
	// buyer. An error wrapping auth.ErrInvalidToken refuses the token.
	Verifier auth.TokenVerifier
	// ResourceMetadataURL is the URL of the RFC 9728 protected-resource
	// metadata (serve it with auth.ProtectedResourceMetadataHandler); it
	// goes into the WWW-Authenticate challenge so clients find the issuer.
	ResourceMetadataURL string
	// ResourceMetadataURLFor, when set, names the metadata of the resource
	// a request is for, and wins over ResourceMetadataURL where it returns
	// a URL: a seller serving MCP at /mcp and A2A at /a2a has a resource,
	// and a metadata document, per endpoint
	// (/.well-known/oauth-protected-resource/mcp and .../a2a, RFC 9728
	// section 3.1; see ProtectedResourceMetadataURL).
	ResourceMetadataURLFor func(r *http.Request) string
	// Scopes must all be granted to the token.
	Scopes []string
	// Realm names the protection space in the challenge.
	Realm string
}

// OAuth is a seller.Authenticator for OAuth 2.0 bearer tokens.
func OAuth(cfg OAuthOptions) seller.Authenticator { return &oauth{cfg} }

type oauth struct{ cfg OAuthOptions }

// refusal is an Authenticate error carrying the metadata URL of the
// resource the refused request was for, which Challenge puts in the
// header (an Authenticator's challenge sees only the error).
type refusal struct {
	err      error
	metadata string
}

func (e *refusal) Error() string { return e.err.Error() }
func (e *refusal) Unwrap() error { return e.err }

func (o *oauth) Authenticate(r *http.Request) (seller.Principal, error) {
	p, err := o.authenticate(r)
	if err != nil && o.cfg.ResourceMetadataURLFor != nil {
		if u := o.cfg.ResourceMetadataURLFor(r); u != "" {
			err = &refusal{err: err, metadata: u}
		}
	}
	return p, err
}

func (o *oauth) authenticate(r *http.Request) (seller.Principal, error) {
	token, err := seller.BearerToken(r)
	if err != nil {
		return seller.Principal{}, err
	}
	ti, err := o.cfg.Verifier(r.Context(), token, r)
	switch {
	case err != nil:
		return seller.Principal{}, fmt.Errorf("%w: %w", seller.ErrBadCredentials, err)
	case ti == nil || ti.UserID == "":
		return seller.Principal{}, fmt.Errorf("%w: the verifier named no user", seller.ErrBadCredentials)
	case !ti.Expiration.IsZero() && ti.Expiration.Before(time.Now()):
		return seller.Principal{}, fmt.Errorf("%w: token expired", seller.ErrBadCredentials)
	}
	for _, s := range o.cfg.Scopes {
		if !slices.Contains(ti.Scopes, s) {
			return seller.Principal{}, fmt.Errorf("%w: scope %q not granted", seller.ErrBadCredentials, s)
		}
	}
	return seller.Principal{ID: ti.UserID, Scopes: ti.Scopes, Expiration: ti.Expiration}, nil
}

// Challenge is RFC 6750's Bearer challenge with RFC 9728's
// resource_metadata parameter.
func (o *oauth) Challenge(err error) string {
	var params []string
	if o.cfg.Realm != "" {
		params = append(params, "realm="+strconv.Quote(o.cfg.Realm))
	}
	metadata := o.cfg.ResourceMetadataURL
	if r := (*refusal)(nil); errors.As(err, &r) {
		metadata = r.metadata
	}
	if metadata != "" {
		params = append(params, "resource_metadata="+strconv.Quote(metadata))
	}
	if len(o.cfg.Scopes) > 0 {
		params = append(params, "scope="+strconv.Quote(strings.Join(o.cfg.Scopes, " ")))
	}
	if errors.Is(err, seller.ErrBadCredentials) {
		params = append(params, `error="invalid_token"`)
	}
	if len(params) == 0 {
		return "Bearer"
	}
	return "Bearer " + strings.Join(params, ", ")
}

// ProtectedResourceMetadataURL is where RFC 9728 (section 3.1) puts the
// metadata of the protected resource identified by resource: the
// well-known path inserted between its origin and its path
// ("https://seller.example/mcp" gives
// "https://seller.example/.well-known/oauth-protected-resource/mcp"). A
// query or fragment is dropped.
func ProtectedResourceMetadataURL(resource string) (string, error) {
	u, err := url.Parse(resource)
	if err != nil {
		return "", fmt.Errorf("mcpserver: resource %q: %w", resource, err)
	}
	if u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("mcpserver: resource %q is not an absolute URL", resource)
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	return u.Scheme + "://" + u.Host + "/.well-known/oauth-protected-resource" + path, nil
}
