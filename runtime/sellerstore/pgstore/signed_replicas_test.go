package pgstore_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// signedReplica is one seller process verifying request signatures with
// the replay store in the shared database.
func signedReplica(t *testing.T, store *pgstore.Store, set *keys.JWKS, runs *atomic.Int64) *httptest.Server {
	t.Helper()
	srv, err := seller.New(adcpt.Spec(), seller.Options{SignedRequests: &seller.SignedRequests{
		Policy: signing.OperationPolicy{SupportedFor: []string{"create_media_buy"}, RequiredFor: []string{"create_media_buy"}},
		Keys:   keys.Static{Set: set, AgentURL: "https://buyer.example/mcp"},
		Replay: store.Nonces(),
		Scheme: "http",
	}})
	if err != nil {
		t.Fatal(err)
	}
	seller.HandleSync(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResponse, error) {
		n := runs.Add(1)
		resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: fmt.Sprintf("mb_%d", n)})
		return &resp, nil
	})
	// The transports' gate, without an SDK behind it (this module keeps
	// to the database driver): Admit on the exact bytes, then Serve.
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := srv.ReadRPCBody(w, r)
		if !ok {
			return
		}
		call := signing.CallOf(body)
		adm, fail := srv.Admit(r, body, call.Operation)
		if fail != nil {
			w.Header().Set("WWW-Authenticate", fail.Challenge)
			http.Error(w, fail.Error.Message, fail.Status)
			return
		}
		args := wire.Lenient(body).Get("params").Get("arguments").Raw()
		a := srv.Serve(r.Context(), call.Operation, &seller.Call{Arguments: args, Principal: adm.Principal, Signer: adm.Signer})
		if a.Error != nil {
			http.Error(w, a.Error.Message, http.StatusBadRequest)
			return
		}
		_, _ = w.Write(a.Body)
	}))
	t.Cleanup(s.Close)
	return s
}

// Two seller replicas on one database behind one loopback address (a
// round-robin proxy keeping the Host buyers signed): a signed request
// replayed to the other replica is request_signature_replayed, and 50
// concurrent copies of one signed request are accepted exactly once.
func TestSignedRequestsAcrossReplicas(t *testing.T) {
	p := pool(t)
	key, jwk, err := keys.GenerateKey(keys.Ed25519, "buyer-2026", nil)
	if err != nil {
		t.Fatal(err)
	}
	set := &keys.JWKS{Keys: []*keys.JWK{jwk}}
	var runs atomic.Int64
	a := signedReplica(t, freshStore(t, p, nil), set, &runs)
	b := signedReplica(t, pgstore.New(pool(t), nil), set, &runs)
	var next atomic.Int64
	var proxies []*httputil.ReverseProxy
	for _, s := range []*httptest.Server{a, b} {
		u, _ := url.Parse(s.URL)
		proxies = append(proxies, httputil.NewSingleHostReverseProxy(u)) // keeps the incoming Host
	}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxies[next.Add(1)%2].ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)

	prof, _ := signing.RequestProfile(adcpt.Spec().Version())
	signer, err := signing.NewSigner(signing.SignerOptions{Profile: prof, KeyID: "buyer-2026", Key: key})
	if err != nil {
		t.Fatal(err)
	}
	signed := func(n int) (http.Header, []byte) {
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":{"idempotency_key":"3f0c8a1e-2b7d-4e5f-9a6b-1c2d3e4f5a` + fmt.Sprintf("%02d", n) + `","packages":[{"product_id":"ctv","budget":5000}]}}}`)
		req, _ := http.NewRequest(http.MethodPost, front.URL, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if err := signer.SignRequest(req, body); err != nil {
			t.Fatal(err)
		}
		return req.Header, body
	}
	send := func(h http.Header, body []byte) (int, signing.Code) {
		req, _ := http.NewRequest(http.MethodPost, front.URL, bytes.NewReader(body))
		req.Header = h.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		code, _ := signing.ParseChallenge(resp.Header.Get("WWW-Authenticate"))
		return resp.StatusCode, code
	}

	h, body := signed(1)
	if status, code := send(h, body); status != 200 {
		t.Fatalf("first: HTTP %d %q", status, code)
	}
	if status, code := send(h, body); status != 401 || code != signing.CodeReplayed {
		t.Fatalf("replayed to the other replica: HTTP %d %q", status, code)
	}

	h, body = signed(2)
	var accepted, replayed atomic.Int64
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for range 50 {
		wg.Go(func() {
			<-gate
			switch status, code := send(h, body); {
			case status == 200:
				accepted.Add(1)
			case status == 401 && code == signing.CodeReplayed:
				replayed.Add(1)
			default:
				t.Errorf("HTTP %d %q", status, code)
			}
		})
	}
	close(gate)
	wg.Wait()
	if accepted.Load() != 1 || replayed.Load() != 49 {
		t.Fatalf("%d accepted, %d replayed; want 1 and 49", accepted.Load(), replayed.Load())
	}
	if n := runs.Load(); n != 2 {
		t.Fatalf("the handler ran %d times, want 2", n)
	}
}
