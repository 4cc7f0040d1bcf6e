package signedagents

import (
	"bytes"
	"context"
	"crypto"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// versions are the published versions with a signing profile, and where
// their trees are under the shared material.
var versions = []struct{ version, source string }{
	{"3.0.26", "protocol/3.0.26.tgz"},
	{"3.1.19", "schemas/3.1.19"},
	{"3.2.0-beta.3", "schemas/3.2.0-beta.3"},
	{"3.2.0-beta.5", "schemas/3.2.0-beta.5"},
}

var specs sync.Map // version → *registry.Spec

// specOf is the version's tool table, read from its published tree.
func specOf(t *testing.T, version, source string) *registry.Spec {
	t.Helper()
	if s, ok := specs.Load(version); ok {
		return s.(*registry.Spec)
	}
	tree, err := spec.Open(filepath.Join(testspec.Dir(t), source))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := generator.SpecTable(tree)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version() != version {
		t.Fatalf("%s is version %q", source, s.Version())
	}
	specs.Store(version, s)
	return s
}

const (
	buyerKey   = "buyer-api-key"
	buyerAgent = "https://buyer.example/mcp"
	keyID      = "buyer-2026"
)

// buyerKeys is the buyer's request-signing key and its JWKS, as the seller
// was given them at onboarding.
var buyerKeys = func() (k struct {
	key  crypto.Signer
	jwks *keys.JWKS
}) {
	key, jwk, err := keys.GenerateKey(keys.Ed25519, keyID, nil)
	if err != nil {
		panic(err)
	}
	k.key, k.jwks = key, &keys.JWKS{Keys: []*keys.JWK{jwk}}
	return k
}()

// seen is one handler run.
type seen struct {
	tool, principal string
	// keyID and agent are the signer the handler's context carried,
	// mwKeyID the one middleware saw on the Call.
	keyID, agent, mwKeyID string
}

// rig is a seller of one version on loopback, over MCP (/mcp) and A2A
// (/a2a), authenticating an API key and verifying signatures with the
// policy below, recording every handler run.
type rig struct {
	t       *testing.T
	version string
	srv     *httptest.Server
	seller  *seller.Server
	// signer signs as the buyer, for the version's profile, content-digest
	// covered.
	signer *signing.Signer
	mu     sync.Mutex
	runs   []seen
}

// policy: create_media_buy required, update_media_buy shadowed,
// sync_creatives supported; from 3.1 the protocol method tasks/cancel
// required.
func policy(version string) signing.OperationPolicy {
	p := signing.OperationPolicy{
		SupportedFor: []string{"create_media_buy", "update_media_buy", "sync_creatives"},
		WarnFor:      []string{"update_media_buy"},
		RequiredFor:  []string{"create_media_buy"},
	}
	if !strings.HasPrefix(version, "3.0.") {
		p.ProtocolMethodsSupportedFor, p.ProtocolMethodsRequiredFor = []string{"tasks/cancel"}, []string{"tasks/cancel"}
	}
	return p
}

func newRig(t *testing.T, version, source string, configure func(*seller.Options)) *rig {
	t.Helper()
	r := &rig{t: t, version: version}
	sp := specOf(t, version, source)
	cfg := seller.Options{
		Authenticator: seller.APIKeys("https://seller.example", map[string]string{buyerKey: "buyer"}),
		SignedRequests: &seller.SignedRequests{
			Policy: policy(version),
			Keys:   keys.Static{Set: buyerKeys.jwks, AgentURL: buyerAgent},
			Scheme: "http",
		},
		BrandJSONURL: "https://seller.example/.well-known/brand.json",
		Middleware: []seller.Middleware{func(next seller.Dispatch) seller.Dispatch {
			return func(ctx context.Context, c *seller.Call) *seller.Answer {
				if c.Signer != nil {
					ctx = context.WithValue(ctx, mwKey{}, c.Signer.KeyID)
				}
				return next(ctx, c)
			}
		}},
	}
	if configure != nil {
		configure(&cfg)
	}
	srv, err := seller.New(sp, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.seller = srv
	for _, tool := range []string{"create_media_buy", "update_media_buy", "sync_creatives", "get_products"} {
		srv.HandleRaw(seller.RawTool{Name: tool, Public: tool == "get_products", Handler: func(ctx context.Context, c *seller.Call) *seller.Answer {
			s := seen{tool: c.Tool.Name, principal: c.Principal.ID}
			if sg, ok := seller.SignerFrom(ctx); ok {
				s.keyID, s.agent = sg.KeyID, sg.AgentURL
			}
			s.mwKeyID, _ = ctx.Value(mwKey{}).(string)
			r.mu.Lock()
			r.runs = append(r.runs, s)
			r.mu.Unlock()
			return &seller.Answer{Status: task.Completed, Body: json.RawMessage(`{"ok":true}`)}
		}})
	}
	mcpH, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true, MinimalInputSchemas: true})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpH)
	r.srv = httptest.NewServer(mux)
	t.Cleanup(r.srv.Close)
	a2aOpts := a2aserver.Options{URL: r.srv.URL + "/a2a"}
	mux.Handle("/a2a", a2aserver.NewHandler(srv, a2aOpts))
	mux.Handle("GET "+a2aserver.CardPath, a2aserver.NewCardHandler(srv, a2aOpts))
	p, err := signing.RequestProfile(version)
	if err != nil {
		t.Fatal(err)
	}
	if r.signer, err = signing.NewSigner(signing.SignerOptions{Profile: p, KeyID: keyID, Key: buyerKeys.key, CoverDigest: true}); err != nil {
		t.Fatal(err)
	}
	return r
}

type mwKey struct{}

// handled returns and forgets the handler runs so far.
func (r *rig) handled() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.runs
	r.runs = nil
	return out
}

// call is one request a test sends.
type call struct {
	transport string // "mcp" or "a2a"
	tool      string // an MCP tool or A2A skill; or a JSON-RPC method when method is set
	method    string
	args      string
	sign      bool
	bearer    string
	// edit changes the request after it is signed.
	edit func(req *http.Request, body []byte) []byte
}

// answer is what the seller answered.
type answer struct {
	status int
	code   signing.Code // the Signature challenge's, "" without one
	body   []byte
	req    *http.Request // as sent (headers), for replays
	sent   []byte
}

// body is the JSON-RPC request of c.
func (c call) body() []byte {
	args := c.args
	if args == "" {
		args = "{}"
	}
	switch {
	case c.method != "":
		return []byte(`{"jsonrpc":"2.0","id":"7","method":"` + c.method + `","params":{"id":"task_1"}}`)
	case c.transport == "a2a":
		return []byte(`{"jsonrpc":"2.0","id":"7","method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"data","data":{"skill":"` + c.tool + `","input":` + args + `}}]}}}`)
	}
	return []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + c.tool + `","arguments":` + args + `}}`)
}

func (r *rig) send(c call) answer {
	r.t.Helper()
	body := c.body()
	req, err := http.NewRequest(http.MethodPost, r.srv.URL+"/"+c.transport, bytes.NewReader(body))
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.bearer)
	}
	if c.sign {
		if err := r.signer.SignRequest(req, body); err != nil {
			r.t.Fatal(err)
		}
	}
	if c.edit != nil {
		body = c.edit(req, body)
		req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
	return r.do(req, body)
}

// do sends req (body its bytes) and reads the answer.
func (r *rig) do(req *http.Request, body []byte) answer {
	r.t.Helper()
	sent := req.Clone(context.Background())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, body: out, req: sent, sent: body}
	a.code, _ = signing.ParseChallenge(resp.Header.Get("WWW-Authenticate"))
	return a
}

// resend sends an answered request again, byte for byte.
func (r *rig) resend(a answer) answer {
	r.t.Helper()
	req := a.req.Clone(context.Background())
	req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(a.sent)), int64(len(a.sent))
	return r.do(req, a.sent)
}
