package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"time"

	"example.com/seller/internal/jws"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/adcpgen/adcpgen/runtime/mcpserver"
)

// issuer is the seller's own OAuth 2.0 authorization server, the second
// way in beside the API key: the client credentials grant (RFC 6749
// section 4.4) at /oauth/token, with resource indicators (RFC 8707), issues
// short-lived ES256 JWT access tokens (RFC 9068) whose audience is the
// protected resource asked for; its metadata (RFC 8414) is at
// /.well-known/oauth-authorization-server and its key at
// /.well-known/jwks.json, on the seller's own origin. Each endpoint (/mcp,
// /a2a) is a protected resource with its metadata (RFC 9728) at
// /.well-known/oauth-protected-resource/<path>. The signing key is made at
// start-up: tokens do not outlive the process.
type issuer struct {
	url       string // the issuer identifier: the seller's base URL
	key       *ecdsa.PrivateKey
	kid       string            // RFC 7638 thumbprint of the public key
	jwk       map[string]string // the public key as a JWK
	clients   []oauthClient
	resources map[string]string // request path -> resource identifier
	ttl       time.Duration
	now       func() time.Time
}

// oauthClient is a registered confidential client, compared by hash.
type oauthClient struct {
	idSum, secretSum [sha256.Size]byte
	id, principal    string
}

// tokenTTL is how long an access token lasts.
const tokenTTL = 15 * time.Minute

// newIssuer returns the issuer of base, serving the resources at paths
// (under base), with one client: clientID and secret, standing for the
// principal.
func newIssuer(base string, paths []string, clientID, secret, principal string, now func() time.Time) (*issuer, error) {
	if clientID == "" || len(secret) < 16 {
		return nil, errors.New("oauth: a client id and a secret of 16 characters or more are needed")
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	jwk, err := jws.PublicJWK(key)
	if err != nil {
		return nil, err
	}
	is := &issuer{
		url: base, key: key, kid: jwk["kid"], jwk: jwk, resources: map[string]string{},
		ttl: tokenTTL, now: now,
	}
	for _, p := range paths {
		is.resources[p] = base + p
	}
	is.clients = []oauthClient{{idSum: sha256.Sum256([]byte(clientID)), secretSum: sha256.Sum256([]byte(secret)), id: clientID, principal: principal}}
	if is.now == nil {
		is.now = time.Now
	}
	return is, nil
}

// routes mounts the token endpoint and the metadata documents.
func (is *issuer) routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /oauth/token", is.token)
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", is.serverMetadata)
	mux.HandleFunc("GET /.well-known/jwks.json", is.jwks)
	for path, resource := range is.resources {
		mux.Handle("/.well-known/oauth-protected-resource"+path, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource:               resource,
			AuthorizationServers:   []string{is.url},
			BearerMethodsSupported: []string{"header"},
			ResourceName:           "adcpgen example seller (" + path + ")",
		}))
	}
}

// metadataURL names the protected-resource metadata of the endpoint r is
// for (mcpserver.OAuthOptions.ResourceMetadataURLFor).
func (is *issuer) metadataURL(r *http.Request) string {
	resource, ok := is.resources[r.URL.Path]
	if !ok {
		return ""
	}
	u, err := mcpserver.ProtectedResourceMetadataURL(resource)
	if err != nil {
		return ""
	}
	return u
}

func (is *issuer) serverMetadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                is.url,
		"token_endpoint":                        is.url + "/oauth/token",
		"jwks_uri":                              is.url + "/.well-known/jwks.json",
		"grant_types_supported":                 []string{"client_credentials"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post"},
		"response_types_supported":              []string{}, // no authorization endpoint
	})
}

func (is *issuer) jwks(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"keys": []map[string]string{is.jwk}})
}

// accessClaims are the claims of an access token (RFC 9068 section 2.2).
type accessClaims struct {
	Issuer   string   `json:"iss"`
	Subject  string   `json:"sub"`
	Audience audience `json:"aud"`
	ClientID string   `json:"client_id"`
	IssuedAt int64    `json:"iat"`
	Expiry   int64    `json:"exp"`
	ID       string   `json:"jti"`
}

// audience is a JWT aud: one string or an array of them (RFC 7519).
type audience []string

func (a *audience) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*a = audience{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return errors.New("aud is neither a string nor an array of strings")
	}
	*a = many
	return nil
}

// tokenError is an error answer of the token endpoint (RFC 6749 section
// 5.2).
type tokenError struct {
	status int
	code   string
	desc   string
}

// token is the token endpoint: the client credentials grant only.
func (is *issuer) token(w http.ResponseWriter, r *http.Request) {
	claims, terr := is.grant(w, r)
	if terr != nil {
		if terr.code == "invalid_client" {
			w.Header().Set("WWW-Authenticate", `Basic realm="`+is.url+`"`)
		}
		writeJSON(w, terr.status, map[string]string{"error": terr.code, "error_description": terr.desc})
		return
	}
	token, err := jws.Sign(is.key, is.kid, "at+jwt", claims)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "server_error"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": int64(is.ttl / time.Second)})
}

// grant checks a token request and returns the claims of its token.
func (is *issuer) grant(w http.ResponseWriter, r *http.Request) (*accessClaims, *tokenError) {
	bad := func(code, desc string) *tokenError { return &tokenError{http.StatusBadRequest, code, desc} }
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/x-www-form-urlencoded" {
		return nil, bad("invalid_request", "send the parameters as application/x-www-form-urlencoded")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 16<<10))
	if err != nil {
		return nil, bad("invalid_request", "the request body is unreadable or too large")
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, bad("invalid_request", "the request body is not form-encoded")
	}
	for name, values := range form {
		if len(values) > 1 && name != "resource" { // RFC 6749 section 3.2; RFC 8707 repeats resource
			return nil, bad("invalid_request", "parameter "+name+" is repeated")
		}
	}
	client, terr := is.client(r, form)
	if terr != nil {
		return nil, terr
	}
	switch form.Get("grant_type") {
	case "client_credentials":
	case "":
		return nil, bad("invalid_request", "grant_type is missing")
	default:
		return nil, bad("unsupported_grant_type", "only client_credentials is supported")
	}
	if form.Get("scope") != "" {
		return nil, bad("invalid_scope", "this server grants no scopes")
	}
	aud := audience(slices.Sorted(maps.Values(is.resources)))
	if asked := form["resource"]; len(asked) > 0 {
		for _, res := range asked {
			if !slices.Contains(aud, res) {
				return nil, bad("invalid_target", "unknown resource "+res)
			}
		}
		aud = asked
	}
	now := is.now()
	var jti [16]byte
	_, _ = rand.Read(jti[:])
	return &accessClaims{
		Issuer: is.url, Subject: client.principal, Audience: aud, ClientID: client.id,
		IssuedAt: now.Unix(), Expiry: now.Add(is.ttl).Unix(), ID: hex.EncodeToString(jti[:]),
	}, nil
}

// client authenticates the client of a token request: HTTP Basic
// (client_secret_basic) or client_id and client_secret in the body
// (client_secret_post), not both.
func (is *issuer) client(r *http.Request, form url.Values) (*oauthClient, *tokenError) {
	id, secret, basic := r.BasicAuth()
	if basic {
		if form.Has("client_secret") {
			return nil, &tokenError{http.StatusBadRequest, "invalid_request", "use one client authentication method"}
		}
		// RFC 6749 section 2.3.1: Basic credentials are form-encoded first.
		var err1, err2 error
		id, err1 = url.QueryUnescape(id)
		secret, err2 = url.QueryUnescape(secret)
		if err1 != nil || err2 != nil || (form.Has("client_id") && form.Get("client_id") != id) {
			return nil, &tokenError{http.StatusUnauthorized, "invalid_client", "client authentication failed"}
		}
	} else {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	idSum, secretSum := sha256.Sum256([]byte(id)), sha256.Sum256([]byte(secret))
	var found *oauthClient
	for i := range is.clients { // every client, in constant time each
		c := &is.clients[i]
		if subtle.ConstantTimeCompare(idSum[:], c.idSum[:])&subtle.ConstantTimeCompare(secretSum[:], c.secretSum[:]) == 1 {
			found = c
		}
	}
	if found == nil {
		return nil, &tokenError{http.StatusUnauthorized, "invalid_client", "client authentication failed"}
	}
	return found, nil
}

// verify is the access-token verifier of the protected resources
// (mcpserver.OAuthOptions.Verifier): an ES256 token of this issuer, signed
// with its key, unexpired, whose audience includes the resource the
// request is for. Every refusal wraps auth.ErrInvalidToken; the reason is
// logged by the seller, never sent.
func (is *issuer) verify(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	refuse := func(why string, args ...any) (*auth.TokenInfo, error) {
		return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, fmt.Sprintf(why, args...))
	}
	payload, err := jws.Verify(&is.key.PublicKey, is.kid, "at+jwt", token)
	if err != nil {
		return refuse("%v", err)
	}
	var c accessClaims
	if err := json.Unmarshal(payload, &c); err != nil {
		return refuse("claims: %v", err)
	}
	now := is.now()
	resource, ok := is.resources[r.URL.Path]
	switch {
	case c.Issuer != is.url:
		return refuse("issuer %q", c.Issuer)
	case !ok:
		return refuse("no protected resource at %s", r.URL.Path)
	case !slices.Contains(c.Audience, resource):
		return refuse("audience %v does not include %s", []string(c.Audience), resource)
	case c.Expiry == 0 || !now.Before(time.Unix(c.Expiry, 0)):
		return refuse("expired")
	case c.IssuedAt > now.Add(time.Minute).Unix():
		return refuse("issued in the future")
	case c.Subject == "":
		return refuse("no subject")
	}
	return &auth.TokenInfo{UserID: c.Subject, Expiration: time.Unix(c.Expiry, 0)}, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
