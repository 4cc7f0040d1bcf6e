package buyer_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/wire"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioSellerEnv makes the test binary an MCP seller on its stdin and
// stdout (go-sdk's stdio transport).
const stdioSellerEnv = "BUYER_TEST_STDIO_SELLER"

func TestMain(m *testing.M) {
	if os.Getenv(stdioSellerEnv) == "1" {
		server := mcp.NewServer(&mcp.Implementation{Name: "stdio-seller", Version: "0"}, nil)
		for name, payload := range map[string]string{
			"get_things":   thingsPayload,
			"lock_thing":   `{"locked":true,"locked":false}`,
			"delete_thing": `{"deleted":true}`,
		} {
			server.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: json.RawMessage(payload)}, nil
				})
		}
		if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// The typed call over MCP's stdio transport: the seller's bytes as its
// process wrote them.
func TestStdio(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), stdioSellerEnv+"=1")
	session, err := mcpclient.ConnectCommand(t.Context(), cmd, mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	c, err := buyer.New(tinyadcp.Spec(), session)
	if err != nil {
		t.Fatal(err)
	}
	res, err := buyer.Call(t.Context(), c, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Response.Things) != 2 {
		t.Errorf("%+v", res.Response)
	}
	_, err = buyer.Call(t.Context(), c, tinyadcp.Tools.LockThing, &tinyadcp.LockThingRequest{ThingID: "t"})
	var de *wire.DecodeError
	if !errors.As(err, &de) || de.Pointer != "/locked" || de.Kind != wire.KindDuplicate {
		t.Errorf("duplicate over stdio: %v", err)
	}
}
