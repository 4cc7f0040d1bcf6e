//go:build adcpgen_bench

package main

import (
	"bytes"
	"context"
	"fmt"

	"github.com/a2aproject/a2a-go/a2a"
	sdka2a "github.com/a2aproject/a2a-go/a2aclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/internal/bench/gen/adcp"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
)

// The buyers' clients: the typed, strict call of runtime/buyer, and the
// SDK's own (go-sdk's CallTool, decoding the result into maps; a2a-go's
// SendMessage, decoding the task).
const (
	buyerTyped = "typed"
	buyerSDK   = "sdk"
)

// buyerCaller connects a cell's client to adcpgen's server and returns its
// call, which checks that the answer holds the products.
func buyerCaller(ctx context.Context, srv *child, c cell) (func(*bytes.Buffer) error, func(), error) {
	url := srv.base + "/" + c.transport + "/" + c.size
	hc := httpClient(c.clients)
	want := map[string]int{"1.6KB": 1, "36KB": 12, "360KB": 120}[c.size]
	req := &adcp.GetProductsRequest{BuyingMode: adcp.GetProductsRequestBuyingModeBrief, Brief: new("Premium CTV for luxury auto")}
	check := func(n int) error {
		if n != want {
			return fmt.Errorf("%d products, not %d", n, want)
		}
		return nil
	}
	switch {
	case c.buyer == buyerTyped:
		var t buyer.Transport
		var closer func() error
		if c.transport == "mcp" {
			s, err := mcpclient.ConnectHTTP(ctx, url, hc, mcpclient.ConnectOptions{})
			if err != nil {
				return nil, nil, err
			}
			t, closer = s, s.Close
		} else {
			conn, err := a2aclient.Dial(ctx, url, hc)
			if err != nil {
				return nil, nil, err
			}
			t, closer = conn, conn.Close
		}
		cl, err := buyer.New(adcp.Spec(), t)
		if err != nil {
			return nil, nil, err
		}
		return func(*bytes.Buffer) error {
			res, err := buyer.Call(ctx, cl, adcp.Tools.GetProducts, req)
			if err != nil {
				return err
			}
			return check(len(res.Response.Products))
		}, func() { _ = closer() }, nil
	case c.transport == "mcp":
		session, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "1"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
		if err != nil {
			return nil, nil, err
		}
		params := &mcp.CallToolParams{Name: "get_products", Arguments: map[string]any{"buying_mode": "brief", "brief": "Premium CTV for luxury auto"}}
		return func(*bytes.Buffer) error {
			res, err := session.CallTool(ctx, params)
			if err != nil {
				return err
			}
			m, _ := res.StructuredContent.(map[string]any)
			ps, _ := m["products"].([]any)
			return check(len(ps))
		}, func() { _ = session.Close() }, nil
	default:
		client, err := sdka2a.NewFromEndpoints(ctx, []a2a.AgentInterface{{URL: url, Transport: a2a.TransportProtocolJSONRPC}},
			sdka2a.WithDefaultsDisabled(), sdka2a.WithJSONRPCTransport(hc))
		if err != nil {
			return nil, nil, err
		}
		return func(*bytes.Buffer) error {
			msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.DataPart{Data: map[string]any{
				"skill": "get_products", "input": map[string]any{"buying_mode": "brief", "brief": "Premium CTV for luxury auto"}}})
			res, err := client.SendMessage(ctx, &a2a.MessageSendParams{Message: msg})
			if err != nil {
				return err
			}
			t, ok := res.(*a2a.Task)
			if !ok || len(t.Artifacts) == 0 || len(t.Artifacts[0].Parts) == 0 {
				return fmt.Errorf("no task artifact: %T", res)
			}
			d, _ := t.Artifacts[0].Parts[0].(a2a.DataPart)
			ps, _ := d.Data["products"].([]any)
			return check(len(ps))
		}, func() { _ = client.Destroy() }, nil
	}
}
