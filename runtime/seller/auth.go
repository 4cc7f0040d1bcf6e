package seller

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller/rpcerr"
)

// Principal is the authenticated buyer a call runs for. Its ID scopes
// idempotency records and tasks: one buyer can neither replay nor read
// another's. The zero Principal is the anonymous caller of a public tool.
type Principal struct {
	// ID identifies the buyer, stably across calls and replicas.
	ID string
	// Scopes are the OAuth scopes of the credential, if any.
	Scopes []string
	// Expiration is when the credential lapses; zero when it does not.
	Expiration time.Time
}

// Anonymous reports the principal of a call made without credentials.
func (p Principal) Anonymous() bool { return p.ID == "" }

type principalKey struct{}

// WithPrincipal returns ctx carrying p. Transports call it; handlers read
// the principal with PrincipalFrom.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal of the call ctx belongs to, and false
// for an anonymous call.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok && !p.Anonymous()
}

// Errors an Authenticator returns. Both are answered with HTTP 401 and a
// WWW-Authenticate header; the header tells them apart (RFC 6750 section 3:
// error="invalid_token" for credentials that were presented and refused).
var (
	ErrNoCredentials  = errors.New("no credentials")
	ErrBadCredentials = errors.New("credentials refused")
)

// Authenticator checks the credentials of an HTTP request. Both transports
// call it before a tool runs; a seller plugs static API keys (APIKeys),
// OAuth 2.0 (runtime/mcpserver's OAuth) or its own.
type Authenticator interface {
	// Authenticate returns the principal r's credentials name. With no
	// credentials presented it returns an error wrapping ErrNoCredentials;
	// with credentials it refuses, one wrapping ErrBadCredentials (the
	// message is logged, never sent).
	Authenticate(r *http.Request) (Principal, error)
	// Challenge is the WWW-Authenticate header value sent with the 401
	// answering err (an error Authenticate returned).
	Challenge(err error) string
}

// APIKeys authenticates static API keys sent as "Authorization: Bearer
// KEY". keys maps each key to the principal ID it stands for. realm names
// the protection space in the challenge (the agent's URL, say). Keys are
// compared in constant time.
func APIKeys(realm string, keys map[string]string) Authenticator {
	a := &apiKeys{realm: realm}
	for k, id := range keys {
		a.keys = append(a.keys, apiKey{sum: sha256.Sum256([]byte(k)), id: id})
	}
	return a
}

type apiKey struct {
	sum [sha256.Size]byte
	id  string
}

type apiKeys struct {
	realm string
	keys  []apiKey
}

func (a *apiKeys) Authenticate(r *http.Request) (Principal, error) {
	token, err := BearerToken(r)
	if err != nil {
		return Principal{}, err
	}
	sum := sha256.Sum256([]byte(token))
	id, found := "", 0
	for _, k := range a.keys { // every key, so timing says nothing about which matched
		if subtle.ConstantTimeCompare(sum[:], k.sum[:]) == 1 {
			id, found = k.id, 1
		}
	}
	if found == 0 {
		return Principal{}, ErrBadCredentials
	}
	return Principal{ID: id}, nil
}

func (a *apiKeys) Challenge(err error) string {
	return BearerChallenge(a.realm, err)
}

// FirstOf authenticates with each of auths in turn and takes the first
// principal one returns: a seller that accepts static API keys and OAuth
// 2.0 access tokens (both sent as "Authorization: Bearer") lists both.
// When none accepts the request, the error joins theirs: ErrNoCredentials
// when none saw credentials, else ErrBadCredentials with the refusals
// (a credential one authenticator refused is never taken for "no
// credentials" by another). The challenge is the first authenticator's:
// list the one whose challenge tells buyers most (OAuth's names its
// protected-resource metadata) first.
func FirstOf(auths ...Authenticator) Authenticator { return firstOf(auths) }

type firstOf []Authenticator

func (f firstOf) Authenticate(r *http.Request) (Principal, error) {
	var missing, refused []error
	for _, a := range f {
		p, err := a.Authenticate(r)
		switch {
		case err == nil && p.ID != "":
			return p, nil
		case err == nil:
			refused = append(refused, errors.New("authenticator returned an empty principal"))
		case errors.Is(err, ErrNoCredentials) && !errors.Is(err, ErrBadCredentials):
			missing = append(missing, err)
		default:
			refused = append(refused, err)
		}
	}
	if len(refused) > 0 {
		return Principal{}, &authErrors{ErrBadCredentials, refused}
	}
	return Principal{}, &authErrors{ErrNoCredentials, missing}
}

// authErrors is why FirstOf refused a request: the verdict (ErrNoCredentials
// or ErrBadCredentials) and each authenticator's error, all reachable with
// errors.Is and errors.As, on one line.
type authErrors struct {
	verdict error
	errs    []error
}

func (e *authErrors) Error() string {
	msgs := make([]string, 0, len(e.errs))
	for _, err := range e.errs {
		if m := strings.TrimPrefix(err.Error(), e.verdict.Error()+": "); m != e.verdict.Error() {
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 0 {
		return e.verdict.Error()
	}
	return e.verdict.Error() + ": " + strings.Join(msgs, "; ")
}

func (e *authErrors) Unwrap() []error { return append([]error{e.verdict}, e.errs...) }

func (f firstOf) Challenge(err error) string {
	if len(f) == 0 {
		return BearerChallenge("", err)
	}
	return f[0].Challenge(err)
}

// BearerToken reads "Authorization: Bearer TOKEN" (the scheme is case
// insensitive). It returns ErrNoCredentials without an Authorization
// header and an error wrapping ErrBadCredentials for another scheme or a
// malformed value.
func BearerToken(r *http.Request) (string, error) {
	h := r.Header.Values("Authorization")
	if len(h) == 0 {
		return "", ErrNoCredentials
	}
	if len(h) > 1 {
		return "", errors.Join(ErrBadCredentials, errors.New("several Authorization headers"))
	}
	scheme, token, ok := strings.Cut(strings.TrimSpace(h[0]), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "bearer") || token == "" || strings.ContainsAny(token, " \t") {
		return "", errors.Join(ErrBadCredentials, errors.New("not a bearer token"))
	}
	return token, nil
}

// BearerChallenge is the WWW-Authenticate value of RFC 6750 for realm:
// with error="invalid_token" when err wraps ErrBadCredentials.
func BearerChallenge(realm string, err error) string {
	var b strings.Builder
	b.WriteString("Bearer")
	sep := " "
	if realm != "" {
		b.WriteString(sep + "realm=" + strconv.Quote(realm))
		sep = ", "
	}
	if errors.Is(err, ErrBadCredentials) {
		b.WriteString(sep + `error="invalid_token"`)
	}
	return b.String()
}

// DefaultPublicTools are the discovery tools a buyer may call without
// credentials (credentials presented are checked all the same). The server
// hands such a call to the handler with the zero Principal and leaves the
// answer as the handler makes it: a seller that shows anonymous buyers
// less (get_products without pricing, say) decides so in its handler,
// where PrincipalFrom reports false for them.
var DefaultPublicTools = []string{"get_adcp_capabilities", "list_creative_formats", "get_products"}

// AuthFailure is why a request was refused before any tool ran. Transports
// answer it with Status (401) and the WWW-Authenticate header Challenge,
// and the AdCP error Error in the body where the transport has one.
type AuthFailure struct {
	Status    int
	Challenge string
	Error     *adcperr.Error
	Err       error
}

// Write answers the refused request: Status, the WWW-Authenticate
// challenge, and a JSON-RPC error response to id (raw JSON; nil is null)
// whose data.adcp_error is Error, under AdCP's reserved JSON-RPC code for
// its code (-32028 for the AUTH codes, -32029, -32030), else JSON-RPC's
// own -32600 (the INVALID_REQUEST of a signed body that repeats a key).
func (f *AuthFailure) Write(w http.ResponseWriter, id json.RawMessage) {
	if f.Challenge != "" {
		w.Header().Set("WWW-Authenticate", f.Challenge)
	}
	resp, err := rpcerr.NewResponse(id, f.Error)
	if err != nil {
		data, derr := adcpErrorJSON(f.Error)
		if derr != nil { // unreachable: the server makes sendable errors
			http.Error(w, "request refused", f.Status)
			return
		}
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		resp = &rpcerr.ErrorResponse{JSONRPC: "2.0", ID: id, Error: &rpcerr.Object{Code: rpcInvalidRequest, Message: "Invalid Request", Data: data}}
	}
	out, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.Status)
	_, _ = w.Write(out)
}

// Authorize authenticates r for a call of tool ("" for a request that calls
// no tool, such as MCP initialize or tools/list, which are public). It
// returns the principal (the zero one for an anonymous call of a public
// tool), or the failure to answer with. Credentials that are presented are
// always checked, even for a public tool: a refused key is a 401.
func (s *Server) Authorize(r *http.Request, tool string) (Principal, *AuthFailure) {
	p, fail := s.authorize(r, tool)
	return p, s.logRefusal(tool, fail)
}

// authorize is Authorize without the log line: Admit may still admit the
// request on its signature.
func (s *Server) authorize(r *http.Request, tool string) (Principal, *AuthFailure) {
	if s.cfg.Authenticator == nil {
		return Principal{}, nil
	}
	p, err := s.cfg.Authenticator.Authenticate(r)
	switch {
	case err == nil && p.ID != "":
		return p, nil
	case err == nil:
		err = errors.Join(ErrBadCredentials, errors.New("authenticator returned an empty principal"))
	case errors.Is(err, ErrNoCredentials) && (tool == "" || s.Public(tool)):
		return Principal{}, nil
	}
	return Principal{}, s.unauthenticated(err)
}

// logRefusal logs a refusal, and returns it.
func (s *Server) logRefusal(tool string, fail *AuthFailure) *AuthFailure {
	if fail != nil {
		s.log.Info("adcp: request refused", "tool", tool, "reason", fail.Err.Error())
	}
	return fail
}

// unauthenticated is the 401 answering credentials missing or refused.
func (s *Server) unauthenticated(err error) *AuthFailure {
	if !errors.Is(err, ErrNoCredentials) && !errors.Is(err, ErrBadCredentials) {
		err = errors.Join(ErrBadCredentials, err)
	}
	code := s.pickCode("AUTH_MISSING", "AUTH_REQUIRED")
	msg := "Authentication required"
	if errors.Is(err, ErrBadCredentials) {
		code = s.pickCode("AUTH_INVALID", "AUTH_REQUIRED")
		msg = "The credentials were refused"
	}
	challenge := ""
	if s.cfg.Authenticator != nil {
		challenge = s.cfg.Authenticator.Challenge(err)
	}
	return &AuthFailure{
		Status:    http.StatusUnauthorized,
		Challenge: challenge,
		Error:     s.newError(code, msg),
		Err:       err,
	}
}

// Authenticated reports a server that checks credentials.
func (s *Server) Authenticated() bool { return s.cfg.Authenticator != nil }

// AuthRequired is the AdCP error for a protected tool called without
// credentials, for transports that answer it in-band (stdio).
func (s *Server) AuthRequired() *adcperr.Error {
	return s.newError(s.pickCode("AUTH_MISSING", "AUTH_REQUIRED"), "Authentication required")
}
