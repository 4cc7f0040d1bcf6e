// Package sellerrig puts a seller.Server on loopback for tests of the
// seller's stateful layers (idempotency, tasks, webhooks): MCP through
// go-sdk's streamable HTTP server and client, A2A through a2a-go's server
// and client, each buyer authenticated with its own API key, and every
// answer read back from the seller's bytes through the runtime's own
// extraction.
package sellerrig

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Keys are the API keys of the test buyers, by principal: pass them to
// seller.APIKeys through Authenticator.
var Keys = map[string]string{"key-buyer-a-0123456789": "buyer-a", "key-buyer-b-0123456789": "buyer-b"}

// KeyOf returns the API key of a principal in Keys.
func KeyOf(principal string) string {
	for k, p := range Keys {
		if p == principal {
			return k
		}
	}
	return ""
}

// Authenticator is seller.APIKeys over Keys.
func Authenticator() seller.Authenticator { return seller.APIKeys("sellerrig", Keys) }

// ServeMCP serves srv over MCP streamable HTTP on loopback and returns the
// endpoint URL; the server stops when t ends.
func ServeMCP(t testing.TB, srv *seller.Server) string {
	t.Helper()
	h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs.URL
}

// Buyer is one buyer's MCP session (go-sdk's client, through
// runtime/mcpclient, which keeps the seller's response bytes).
type Buyer struct {
	Session *mcpclient.Session
	x       *extract.Extractor
}

type bearer struct {
	key  string
	base http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.base.RoundTrip(r)
}

// ConnectMCP connects a buyer with key (empty: no credentials) to the MCP
// endpoint url; x reads the answers.
func ConnectMCP(t testing.TB, url, key string, x *extract.Extractor) *Buyer {
	t.Helper()
	hc := &http.Client{Transport: bearer{key: key, base: http.DefaultTransport}}
	if key == "" {
		hc = http.DefaultClient
	}
	ct := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true}
	cs, err := mcpclient.Connect(context.Background(), ct, mcpclient.ConnectOptions{Implementation: &mcp.Implementation{Name: "sellerrig-buyer", Version: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return &Buyer{Session: cs, x: x}
}

// Outcome is an answer as a buyer reads it.
type Outcome struct {
	// Status, TaskID and Replayed are the envelope's status, task_id and
	// replayed members.
	Status   task.Status
	TaskID   string
	Replayed bool
	// Data is the answer's object (structuredContent); Err the AdCP error.
	Data json.RawMessage
	Err  *adcperr.Error
	// CallErr is a failure of the call itself (transport, JSON-RPC).
	CallErr error
}

// Member returns a top-level string member of Data.
func (o Outcome) Member(name string) string {
	s, _ := wire.Lenient(o.Data).Get(name).AsString()
	return s
}

// Call calls tool with args (a JSON object) and reads the answer: the
// seller's JSON-RPC response, byte for byte, through the MCP extraction.
func (b *Buyer) Call(ctx context.Context, tool, args string) Outcome {
	resp, err := b.Session.CallToolRaw(ctx, tool, json.RawMessage(args))
	if err != nil {
		return Outcome{CallErr: err}
	}
	r := b.x.MCP(resp.Message)
	if r.Error == nil && r.Data == nil { // a problem, or nothing to read
		return Outcome{CallErr: r.Failure()}
	}
	o := Outcome{Data: r.Data, Err: r.Error}
	d := wire.Lenient(r.Data)
	status, _ := d.Get("status").AsString()
	o.Status = task.Status(status)
	o.TaskID, _ = d.Get("task_id").AsString()
	o.Replayed = string(d.Get("replayed")) == "true"
	if o.Err != nil {
		o.Status = task.Failed
	}
	return o
}
