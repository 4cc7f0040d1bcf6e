//go:build adcpgen_bench

package bench

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/internal/bench/gen/adcp"
	"github.com/adcpgen/adcpgen/internal/bench/gen/plain"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// productsArgs is the get_products call every seller answers.
var productsArgs = json.RawMessage(`{"buying_mode":"brief","brief":"Premium CTV for luxury auto","context":{"correlation_id":"c-1"}}`)

// rawMCP drives an MCP server over go-sdk's in-memory transport with raw
// JSON-RPC messages, so the client side costs the same whatever the server
// does: it decodes the response envelope, never the result.
type rawMCP struct {
	conn mcp.Connection
	next int
}

func connectRaw(b *testing.B, server *mcp.Server) *rawMCP {
	b.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(b.Context(), st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ss.Close() })
	conn, err := ct.Connect(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	c := &rawMCP{conn: conn}
	c.roundTrip(b, "initialize", json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}`))
	if err := conn.Write(b.Context(), &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}); err != nil {
		b.Fatal(err)
	}
	return c
}

func (c *rawMCP) roundTrip(b *testing.B, method string, params json.RawMessage) json.RawMessage {
	c.next++
	id, err := jsonrpc.MakeID(float64(c.next))
	if err != nil {
		b.Fatal(err)
	}
	if err := c.conn.Write(context.Background(), &jsonrpc.Request{ID: id, Method: method, Params: params}); err != nil {
		b.Fatal(err)
	}
	for {
		msg, err := c.conn.Read(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID == id {
			if resp.Error != nil {
				b.Fatal(resp.Error)
			}
			return resp.Result
		}
	}
}

func callParams(args json.RawMessage) json.RawMessage {
	return json.RawMessage(`{"name":"get_products","arguments":` + string(args) + `}`)
}

// BenchmarkSellerGetProducts is the server's cost per get_products call
// answering the 35.7 KB fixture, through go-sdk's mcp.Server on an
// in-memory connection: adcpgen's seller (strict decode of the raw
// arguments, handler, strict encode, context echo, envelope, text mirror),
// with and without response validation, beside go-sdk's own typed
// mcp.AddTool on the same structs without methods (encoding/json, with
// the input and output validation it always does).
func BenchmarkSellerGetProducts(b *testing.B) {
	data := fixture(b)
	var ours adcp.GetProductsResponse
	if err := wire.Unmarshal(data, &ours); err != nil {
		b.Fatal(err)
	}
	var theirs plain.GetProductsResponse
	if err := json.Unmarshal(data, &theirs); err != nil {
		b.Fatal(err)
	}
	tree, err := spec.Open(testspec.Path(b, "protocol", "3.0.26.tgz"))
	if err != nil {
		b.Fatal(err)
	}
	adcpgenServer := func(b *testing.B, validate bool) *mcp.Server {
		cfg := seller.Options{}
		if validate {
			cfg.Schemas, cfg.ValidateResponses = tree, true
		}
		srv, err := seller.New(adcp.Spec(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		seller.HandleSync(srv, adcp.Tools.GetProducts, func(_ context.Context, _ *adcp.GetProductsRequest) (*adcp.GetProductsResponse, error) {
			r := ours
			return &r, nil
		})
		server, err := mcpserver.NewServer(srv, mcpserver.Options{MinimalInputSchemas: true})
		if err != nil {
			b.Fatal(err)
		}
		return server
	}
	run := func(b *testing.B, server *mcp.Server) {
		c := connectRaw(b, server)
		params := callParams(productsArgs)
		if res := c.roundTrip(b, "tools/call", params); len(res) < len(data) {
			b.Fatalf("short result: %s", res)
		}
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			c.roundTrip(b, "tools/call", params)
		}
	}
	b.Run("adcpgen", func(b *testing.B) { run(b, adcpgenServer(b, false)) })
	b.Run("adcpgen-validated", func(b *testing.B) { run(b, adcpgenServer(b, true)) })
	b.Run("go-sdk-AddTool", func(b *testing.B) {
		server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		// Schemas inferred from these structs refuse the context object
		// (jsonschema-go takes json.RawMessage for a byte array), so the tool
		// gets the minimal object schemas, as ours does.
		object := &jsonschema.Schema{Type: "object"}
		mcp.AddTool(server, &mcp.Tool{Name: "get_products", InputSchema: object, OutputSchema: object}, func(_ context.Context, _ *mcp.CallToolRequest, in plain.GetProductsRequest) (*mcp.CallToolResult, plain.GetProductsResponse, error) {
			out := theirs
			out.Context = in.Context // go-sdk does not echo the context itself
			return nil, out, nil
		})
		run(b, server)
	})
}

// BenchmarkSellerServe is adcpgen's own share of a call, without go-sdk:
// Serve (strict decode, handler, strict encode, context echo) and the MCP
// result built from the answer.
func BenchmarkSellerServe(b *testing.B) {
	data := fixture(b)
	var ours adcp.GetProductsResponse
	if err := wire.Unmarshal(data, &ours); err != nil {
		b.Fatal(err)
	}
	srv, err := seller.New(adcp.Spec(), seller.Options{})
	if err != nil {
		b.Fatal(err)
	}
	seller.HandleSync(srv, adcp.Tools.GetProducts, func(_ context.Context, _ *adcp.GetProductsRequest) (*adcp.GetProductsResponse, error) {
		r := ours
		return &r, nil
	})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := range b.N {
		a := srv.Serve(b.Context(), "get_products", &seller.Call{Arguments: productsArgs, Transport: seller.TransportMCP})
		res := mcpserver.ResultOf(a, false)
		if a.Error != nil || res.IsError {
			b.Fatal(strconv.Itoa(i), a.Error)
		}
	}
}
