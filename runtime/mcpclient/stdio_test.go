package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioSellerEnv makes the test binary an MCP seller on stdin and stdout.
const stdioSellerEnv = "MCPCLIENT_TEST_STDIO_SELLER"

func TestMain(m *testing.M) {
	if os.Getenv(stdioSellerEnv) == "1" {
		serveStdio()
		return
	}
	os.Exit(m.Run())
}

// serveStdio is the seller process: go-sdk's server on its stdio transport.
func serveStdio() {
	server := mcp.NewServer(&mcp.Implementation{Name: "stdio-seller", Version: "0"}, nil)
	server.AddTool(&mcp.Tool{Name: "structured", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: json.RawMessage(hostile)}, nil
		})
	server.AddTool(&mcp.Tool{Name: "limited", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: -32029, Message: "Rate limited", Data: json.RawMessage(`{"adcp_error":{"code":"RATE_LIMITED","code":"X"}}`)}
		})
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}

func TestConnectCommand(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), stdioSellerEnv+"=1")
	c, err := mcpclient.ConnectCommand(t.Context(), cmd, mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.CallToolRaw(t.Context(), "structured", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Exact || !bytes.HasPrefix(resp.Message, []byte(`{"jsonrpc":"2.0"`)) {
		t.Errorf("Exact=%v Message=%s", resp.Exact, resp.Message)
	}
	if got := member(t, resp.Result, "structuredContent"); !bytes.Equal(got, []byte(hostile)) {
		t.Errorf("structuredContent\n got %s\nwant %s", got, hostile)
	}
	resp, err = c.CallToolRaw(t.Context(), "limited", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(member(t, resp.Error, "data")); got != `{"adcp_error":{"code":"RATE_LIMITED","code":"X"}}` {
		t.Errorf("error.data %s", got)
	}
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Exited() {
		t.Errorf("the seller process is still running after Close: %v", cmd.ProcessState)
	}
}
