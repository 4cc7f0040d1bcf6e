package examples

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	adcp "github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/signing/keys"
)

// The README's buyer calls the README's seller on loopback: both snippets
// run, not only compile.
func TestBuyerCallsSeller(t *testing.T) {
	h, err := Seller(func(*adcp.GetProductsRequest) *adcp.GetProductsResponse {
		return &adcp.GetProductsResponse{Products: []adcp.Product{{ProductID: "ctv-1", Name: "CTV, prime time"}}}
	})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	name, err := Buyer(context.Background(), srv.URL+"/mcp")
	if err != nil {
		t.Fatal(err)
	}
	if name != "CTV, prime time" {
		t.Fatalf("the buyer read %q, want the seller's first product", name)
	}
}

// docs/seller.md's seller answers anonymous discovery with the public
// catalogue, over MCP, and serves its agent card for A2A.
func TestMuxAnswersAnonymousDiscovery(t *testing.T) {
	asked := "unset"
	mux, err := Mux(sellertest.Tree(t), map[string]string{"key-1": "buyer-1"}, func(buyer string, _ *adcp.GetProductsRequest) *adcp.GetProductsResponse {
		asked = buyer
		return &adcp.GetProductsResponse{Products: sellertest.Products()}
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx := context.Background()
	session, err := mcpclient.ConnectHTTP(ctx, srv.URL+"/mcp", nil, mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	c, err := buyer.New(adcp.Spec(), session)
	if err != nil {
		t.Fatal(err)
	}
	res, err := buyer.Call(ctx, c, adcp.Tools.GetProducts, &adcp.GetProductsRequest{BuyingMode: adcp.GetProductsRequestBuyingModeWholesale})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Response.Products; len(p) != 2 || asked != "" {
		t.Fatalf("anonymous get_products answered %+v for buyer %q, want two products for the anonymous buyer", p, asked)
	}
	card, err := http.Get(srv.URL + a2aserver.CardPath)
	if err != nil {
		t.Fatal(err)
	}
	card.Body.Close()
	if card.StatusCode != http.StatusOK {
		t.Fatalf("agent card: HTTP %d", card.StatusCode)
	}
}

// docs/seller.md's Run serves until its context ends, then returns once
// the server is shut down.
func TestRun(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, ln, http.NotFoundHandler()) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/")
	if err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("%v %v", resp, err)
	}
	resp.Body.Close()
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestExtract(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		products   int
		wait       time.Duration
		wantErr    bool
	}{
		{"data", `{"content":[{"type":"text","text":"1 product"}],"structuredContent":{"products":[{"product_id":"p","name":"P"}]}}`, 1, 0, false},
		{"transient error", `{"isError":true,"content":[{"type":"text","text":"slow down"}],"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","message":"slow down","recovery":"transient","retry_after":7}}}`, 0, 7 * time.Second, true},
		{"duplicate key", `{"content":[],"structuredContent":{"products":[{"product_id":"p","product_id":"q","name":"P"}]}}`, 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, wait, err := Extract([]byte(tc.body))
			if (err != nil) != tc.wantErr || wait != tc.wait || res != nil && len(res.Products) != tc.products {
				t.Fatalf("Extract = %+v, %v, %v", res, wait, err)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	dir := filepath.Join("..", "..", "internal", "sellertest", "schemas")
	for _, tc := range []struct {
		body   string
		issues int
	}{
		{`{"products":[{"product_id":"p","name":"P"}]}`, 0},
		{`{"products":[{"product_id":"p"}]}`, 1},
	} {
		issues, err := Validate(dir, []byte(tc.body))
		if err != nil || len(issues) != tc.issues {
			t.Errorf("Validate(%s) = %v, %v; want %d issues", tc.body, issues, err, tc.issues)
		}
	}
}

func TestOpenEmbedded(t *testing.T) {
	tmp := t.TempDir()
	if err := os.CopyFS(filepath.Join(tmp, "specdata"), os.DirFS(filepath.Join("..", "..", "internal", "sellertest", "schemas"))); err != nil {
		t.Fatal(err)
	}
	tree, err := OpenEmbedded(os.DirFS(tmp))
	if err != nil {
		t.Fatal(err)
	}
	if tree.Version != adcp.SpecVersion {
		t.Fatalf("tree version %q, want %q", tree.Version, adcp.SpecVersion)
	}
}

// docs/signing.md's buyer signs get_products as docs/signing.md's seller
// requires; the README's unsigned buyer is refused.
func TestSignedBuyerCallsSignedSeller(t *testing.T) {
	key, jwk, err := keys.GenerateKey(keys.Ed25519, "buyer-2026", nil)
	if err != nil {
		t.Fatal(err)
	}
	var agent string
	h, err := SignedSeller(&keys.JWKS{Keys: []*keys.JWK{jwk}}, "http", func(a string, _ *adcp.GetProductsRequest) *adcp.GetProductsResponse {
		agent = a
		return &adcp.GetProductsResponse{Products: []adcp.Product{{ProductID: "ctv-1", Name: "CTV, prime time"}}}
	})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	name, err := SignedBuyer(context.Background(), srv.URL+"/mcp", "buyer-2026", key)
	if err != nil || name != "CTV, prime time" || agent != "https://buyer.example/mcp" {
		t.Fatalf("the signed buyer read %q (%v), the seller saw agent %q", name, err, agent)
	}
	if _, err := Buyer(context.Background(), srv.URL+"/mcp"); err == nil || !strings.Contains(err.Error(), "AUTH_REQUIRED") {
		t.Fatalf("an unsigned get_products: %v, want AUTH_REQUIRED (the 401 challenge says request_signature_required)", err)
	}
}
