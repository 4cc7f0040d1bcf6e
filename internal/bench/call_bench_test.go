//go:build adcpgen_bench

package bench

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/bench/gen/adcp"
	"github.com/adcpgen/adcpgen/internal/testseller"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCall times one get_products call against an MCP seller on
// go-sdk's server over loopback HTTP (server-sent events, go-sdk's
// default framing), answering with the 35.7 KB fixture as
// structuredContent: the typed, strict call of runtime/buyer beside
// go-sdk's own CallTool, which decodes the result into maps. Both pay the
// same seller and HTTP; the difference is the client's own cost.
func BenchmarkCall(b *testing.B) {
	data := fixture(b)
	seller := testseller.NewMCPSeller(map[string]testseller.MCPReply{
		"get_products": {StructuredContent: json.RawMessage(data), Text: "Found 12 products"},
	}, testseller.MCPOptions{})
	defer seller.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tr := &http.Transport{MaxIdleConnsPerHost: 8}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}

	b.Run("sdk-maps", func(b *testing.B) {
		session, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: seller.URL, HTTPClient: hc}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer session.Close()
		params := &mcp.CallToolParams{Name: "get_products", Arguments: map[string]any{"buying_mode": "brief", "brief": "CTV"}}
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			res, err := session.CallTool(ctx, params)
			if err != nil {
				b.Fatal(err)
			}
			if m, ok := res.StructuredContent.(map[string]any); !ok || len(m["products"].([]any)) != 12 {
				b.Fatalf("structuredContent %T", res.StructuredContent)
			}
		}
	})

	b.Run("typed-strict", func(b *testing.B) {
		session, err := mcpclient.ConnectHTTP(ctx, seller.URL, hc, mcpclient.ConnectOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer session.Close()
		c, err := buyer.New(adcp.Spec(), session)
		if err != nil {
			b.Fatal(err)
		}
		req := &adcp.GetProductsRequest{BuyingMode: adcp.GetProductsRequestBuyingModeBrief, Brief: new("CTV")}
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			res, err := buyer.Call(ctx, c, adcp.Tools.GetProducts, req)
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Response.Products) != 12 {
				b.Fatalf("%d products", len(res.Response.Products))
			}
		}
	})
}

// BenchmarkCallClientSide isolates the client's own cost from the seller's
// and the loopback's: the same JSON-RPC response (the fixture as
// structuredContent), decoded as go-sdk's client decodes it (the JSON-RPC
// message, then the CallToolResult into maps) and as the typed call reads
// it (rawrpc.Parse as the transport does, extraction, status detection,
// strict decoding into GetProductsResponse).
func BenchmarkCallClientSide(b *testing.B) {
	data := fixture(b)
	env := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Found 12 products"}],"structuredContent":` + string(data) + `}}`)
	b.Run("sdk-maps", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			msg, err := jsonrpc.DecodeMessage(env)
			if err != nil {
				b.Fatal(err)
			}
			var res mcp.CallToolResult
			if err := res.UnmarshalJSON(msg.(*jsonrpc.Response).Result); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("typed-strict", func(b *testing.B) {
		c, err := buyer.New(adcp.Spec(), parsingTransport{env})
		if err != nil {
			b.Fatal(err)
		}
		req := &adcp.GetProductsRequest{BuyingMode: adcp.GetProductsRequestBuyingModeBrief, Brief: new("CTV")}
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			res, err := buyer.Call(context.Background(), c, adcp.Tools.GetProducts, req)
			if err != nil || len(res.Response.Products) != 12 {
				b.Fatal(err)
			}
		}
	})
}

// parsingTransport answers with one envelope, checked by rawrpc.Parse as
// the real transports check what they record.
type parsingTransport struct{ env []byte }

func (parsingTransport) Protocol() buyer.Protocol { return buyer.MCP }

func (p parsingTransport) CallTool(context.Context, buyer.ToolCall) (*buyer.Exchange, error) {
	r, err := rawrpc.Parse(p.env)
	if err != nil {
		return nil, err
	}
	return &buyer.Exchange{Protocol: buyer.MCP, Envelope: r.Message, Exact: true}, nil
}
