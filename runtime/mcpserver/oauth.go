package mcpserver

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/adcpgen/adcpgen/runtime/seller"
)

// OAuthConfig configures OAuth 2.0 bearer tokens through go-sdk's auth
// package.
type OAuthConfig struct {
	// Verifier checks a token with the seller's issuer (introspection,
	// JWT verification) and returns its TokenInfo; UserID must name the
	// buyer. An error wrapping auth.ErrInvalidToken refuses the token.
	Verifier auth.TokenVerifier
	// ResourceMetadataURL is the URL of the RFC 9728 protected-resource
	// metadata (serve it with auth.ProtectedResourceMetadataHandler); it
	// goes into the WWW-Authenticate challenge so clients find the issuer.
	ResourceMetadataURL string
	// Scopes must all be granted to the token.
	Scopes []string
	// Realm names the protection space in the challenge.
	Realm string
}

// OAuth is a seller.Authenticator for OAuth 2.0 bearer tokens.
func OAuth(cfg OAuthConfig) seller.Authenticator { return &oauth{cfg} }

type oauth struct{ cfg OAuthConfig }

func (o *oauth) Authenticate(r *http.Request) (seller.Principal, error) {
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
	if o.cfg.ResourceMetadataURL != "" {
		params = append(params, "resource_metadata="+strconv.Quote(o.cfg.ResourceMetadataURL))
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
