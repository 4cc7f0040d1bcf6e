package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// stdioChild is set in the environment of the test binary re-run as an
// MCP server on its standard input and output.
const stdioChild = "ADCPGEN_MCPSERVER_STDIO_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(stdioChild) == "1" {
		if err := serveStdio(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serveStdio serves the test spec's get_products and list_creatives on
// stdio, list_creatives protected, calls running as the local principal.
func serveStdio() error {
	tree, err := sellertest.OpenTree()
	if err != nil {
		return err
	}
	srv, err := seller.New(adcpt.Spec(), seller.Options{Schemas: tree, ValidateResponses: true, Authenticator: seller.APIKeys("x", keys)})
	if err != nil {
		return err
	}
	seller.HandleSync(srv, adcpt.Tools.GetProducts, func(context.Context, *adcpt.GetProductsRequest) (*adcpt.GetProductsResponse, error) {
		return &adcpt.GetProductsResponse{Products: sellertest.Products()}, nil
	})
	seller.HandleSync(srv, adcpt.Tools.ListCreatives, func(ctx context.Context, _ *adcpt.ListCreativesRequest) (*adcpt.ListCreativesResponse, error) {
		p, _ := seller.PrincipalFrom(ctx)
		return &adcpt.ListCreativesResponse{Creatives: []adcpt.ListCreativesResponseCreative{{CreativeID: "of-" + p.ID}}}, nil
	})
	return mcpserver.ServeStdio(context.Background(), srv, mcpserver.Options{LocalPrincipal: seller.Principal{ID: "operator"}})
}

// TestStdio runs the seller as a child process speaking MCP on stdio, and
// calls it through the raw-bytes client.
func TestStdio(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), stdioChild+"=1")
	c, err := mcpclient.ConnectCommand(t.Context(), cmd, mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	resp, err := c.CallToolRaw(t.Context(), "get_products", json.RawMessage(`{"buying_mode":"brief","context":{"via":"stdio"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if r := x.MCP(resp.Result); r.Error != nil || !json.Valid(r.Data) || string(r.Data) == "" {
		t.Fatalf("get_products: %+v", r)
	}
	resp, _ = c.CallToolRaw(t.Context(), "get_products", json.RawMessage(`{"buying_mode":"brief","buying_mode":"brief"}`))
	if r := x.MCP(resp.Result); r.Error == nil || r.Error.Code != "INVALID_REQUEST" {
		t.Errorf("duplicate key over stdio: %+v", r)
	}
	resp, _ = c.CallToolRaw(t.Context(), "list_creatives", json.RawMessage(`{}`))
	if r := x.MCP(resp.Result); r.Error != nil || !bytes.Contains(r.Data, []byte(`"creative_id":"of-operator"`)) {
		t.Errorf("list_creatives as the local principal: %+v %s", r.Error, r.Data)
	}
}
