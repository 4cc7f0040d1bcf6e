package testseller

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPReply is a tool's canned answer.
type MCPReply struct {
	// StructuredContent is sent as is (compacted); nil sends none.
	StructuredContent json.RawMessage
	// Text is content[0].text; "" sends no content item.
	Text    string
	IsError bool
	// RPCError, when set, is returned as the JSON-RPC error instead of a
	// result; its Data is sent as is.
	RPCError *jsonrpc.Error
	// Hang makes the tool never answer: it waits until the call is
	// cancelled.
	Hang bool
}

// MCPOptions configure an MCP seller.
type MCPOptions struct {
	// JSONResponse answers POSTs with application/json instead of the
	// go-sdk default, text/event-stream.
	JSONResponse bool
	// RepeatResult makes a hostile intermediary out of the seller: in every
	// response it answers, "result":{...} becomes "result":{},"result":{...},
	// a duplicate member in the JSON-RPC envelope itself.
	RepeatResult bool
	// Script, when set, answers every call instead of the tool's canned
	// reply (which then only names the tool): a reply per call, so a test
	// can answer an error first and a success next, or a status tool can
	// report progress.
	Script func(MCPCall) MCPReply
}

// MCPCall is one tools/call the seller received.
type MCPCall struct {
	Tool string
	// Args are the arguments as the buyer sent them.
	Args json.RawMessage
	// N counts the calls of this tool, from 1.
	N int
}

// MCPSeller is an MCP seller on loopback.
type MCPSeller struct {
	*httptest.Server
	headerLog
	gaveUp chan string
	script func(MCPCall) MCPReply
	// stop ends hanging calls when the seller closes, so Close never
	// waits on a handler whose cancellation the buyer did not send.
	stop     chan struct{}
	stopOnce sync.Once

	mu    sync.Mutex
	calls []MCPCall
}

// NewMCPSeller starts a seller offering one tool per entry of tools. Close
// it when done.
func NewMCPSeller(tools map[string]MCPReply, opts MCPOptions) *MCPSeller {
	s := &MCPSeller{gaveUp: make(chan string, 64), script: opts.Script, stop: make(chan struct{})}
	server := mcp.NewServer(&mcp.Implementation{Name: "testseller", Version: "0"}, nil)
	names := make([]string, 0, len(tools))
	for name := range tools {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		reply := tools[name]
		server.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				call := s.log(name, req.Params.Arguments)
				if s.script != nil {
					return s.answer(ctx, name, s.script(call))
				}
				return s.answer(ctx, name, reply)
			})
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{JSONResponse: opts.JSONResponse})
	var h http.Handler = handler
	if opts.RepeatResult {
		h = repeatResult(h)
	}
	s.Server = httptest.NewServer(s.wrap(h))
	return s
}

// log records a call and returns it.
func (s *MCPSeller) log(tool string, args json.RawMessage) MCPCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 1
	for _, c := range s.calls {
		if c.Tool == tool {
			n++
		}
	}
	c := MCPCall{Tool: tool, Args: append(json.RawMessage(nil), args...), N: n}
	s.calls = append(s.calls, c)
	return c
}

// Calls returns every call received so far, in order.
func (s *MCPSeller) Calls() []MCPCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]MCPCall(nil), s.calls...)
}

// Close ends hanging calls, then shuts the server down.
func (s *MCPSeller) Close() {
	s.stopOnce.Do(func() { close(s.stop) })
	s.Server.Close()
}

// GaveUp receives the name of each hanging tool whose call was cancelled
// by the buyer (go-sdk cancels the handler on notifications/cancelled).
func (s *MCPSeller) GaveUp() <-chan string { return s.gaveUp }

func (s *MCPSeller) answer(ctx context.Context, name string, r MCPReply) (*mcp.CallToolResult, error) {
	if r.Hang {
		select {
		case <-ctx.Done():
		case <-s.stop:
			return nil, errors.New("seller closed")
		}
		select {
		case s.gaveUp <- name:
		default:
		}
		return nil, ctx.Err()
	}
	if r.RPCError != nil {
		return nil, r.RPCError
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{}, IsError: r.IsError}
	if r.Text != "" {
		res.Content = append(res.Content, &mcp.TextContent{Text: r.Text})
	}
	if r.StructuredContent != nil {
		res.StructuredContent = r.StructuredContent
	}
	return res, nil
}
