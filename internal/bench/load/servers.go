//go:build adcpgen_bench

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"runtime/metrics"
	"syscall"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/internal/bench/gen/adcp"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// The server processes: this binary with childEnv set to a server's name.
const (
	childEnv   = "ADCPGEN_LOAD_SERVER"
	specEnv    = "ADCPGEN_LOAD_SPEC"
	serverOurs = "adcpgen"
	serverBare = "bare" // go-sdk on /mcp/, a2a-go on /a2a/
)

// args are the get_products arguments every call sends.
const args = `{"buying_mode":"brief","brief":"Premium CTV for luxury auto","context":{"correlation_id":"c-1"}}`

// serveChild runs one server process: it prints its address on stdout,
// serves until stdin closes (the driver is gone), and answers
// /debug/load-stats (its CPU time and allocations so far) and
// /debug/pprof/.
func serveChild(kind, specDir string) error {
	ans, err := answers(specDir)
	if err != nil {
		return err
	}
	tree, err := spec.Open(filepath.Join(specDir, "protocol", "3.0.26.tgz"))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	mux := http.NewServeMux()
	for _, size := range sizes {
		srv, err := newSeller(tree, ans[size])
		if err != nil {
			return err
		}
		switch kind {
		case serverOurs:
			h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
			if err != nil {
				return err
			}
			mux.Handle("/mcp/"+size, h)
			opts := a2aserver.Options{URL: base + "/a2a/" + size}
			mux.Handle("/a2a/"+size, a2aserver.NewHandler(srv, opts))
			mux.Handle("GET /a2a/"+size+a2aserver.CardPath, a2aserver.NewCardHandler(srv, opts))
		case serverBare:
			body, err := bodyOf(srv)
			if err != nil {
				return err
			}
			mux.Handle("/mcp/"+size, bareMCP(body))
			mux.Handle("/a2a/"+size, bareA2A(body))
		default:
			return fmt.Errorf("no server %q", kind)
		}
	}
	mux.HandleFunc("GET /debug/load-stats", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(readUsage())
	})
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	go func() { // the driver closes stdin when it is done, or dies
		_, _ = io.Copy(io.Discard, bufio.NewReader(os.Stdin))
		os.Exit(0)
	}()
	fmt.Println(base)
	return (&http.Server{Handler: mux, ReadHeaderTimeout: time.Minute}).Serve(ln)
}

// newSeller is adcpgen's seller answering get_products with resp (a copy
// per call, as a handler building its answer would), with the 3.0.26
// schemas (requests are checked against them).
func newSeller(tree *spec.Tree, resp *adcp.GetProductsResponse) (*seller.Server, error) {
	srv, err := seller.New(adcp.Spec(), seller.Options{Schemas: tree})
	if err != nil {
		return nil, err
	}
	seller.HandleSync(srv, adcp.Tools.GetProducts, func(context.Context, *adcp.GetProductsRequest) (*adcp.GetProductsResponse, error) {
		r := *resp
		return &r, nil
	})
	return srv, nil
}

// bodyOf is the response object adcpgen's seller sends for the calls of
// the load: what the bare servers send too.
func bodyOf(srv *seller.Server) (json.RawMessage, error) {
	a := srv.Serve(context.Background(), "get_products", &seller.Call{Arguments: json.RawMessage(args), Transport: seller.TransportMCP})
	if a.Error != nil {
		return nil, fmt.Errorf("the seller refused the load's call: %v", a.Error)
	}
	return a.Body, nil
}

// bareMCP is go-sdk's streamable HTTP server (stateless, JSON responses,
// as adcpgen's is run) with one tool returning body as structured content
// and its JSON text, as adcpgen's seller does: the same bytes.
func bareMCP(body json.RawMessage) http.Handler {
	server := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	text := string(body)
	server.AddTool(&mcp.Tool{Name: "get_products", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: body}, nil
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// bareA2A is a2a-go's JSON-RPC server answering message/send with the task
// adcpgen's seller sends: a completed task whose artifact "result" holds
// body as a DataPart (its members as raw JSON, the cheapest a2a-go takes).
func bareA2A(body json.RawMessage) http.Handler {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		panic(err)
	}
	data := make(map[string]any, len(members))
	for k, v := range members {
		data[k] = v
	}
	return a2asrv.NewJSONRPCHandler(bareHandler{data: data})
}

type bareHandler struct {
	a2asrv.RequestHandler // nil: only message/send is called
	data                  map[string]any
}

func (h bareHandler) OnSendMessage(_ context.Context, p *a2a.MessageSendParams) (a2a.SendMessageResult, error) {
	contextID := ""
	if p != nil && p.Message != nil {
		contextID = p.Message.ContextID
	}
	if contextID == "" {
		contextID = a2a.NewContextID()
	}
	now := time.Now().UTC().Truncate(time.Second)
	return &a2a.Task{ID: a2a.NewTaskID(), ContextID: contextID,
		Status:    a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: &now},
		Artifacts: []*a2a.Artifact{{ID: "result", Parts: a2a.ContentParts{a2a.DataPart{Data: h.data}}}},
	}, nil
}

// usage is a process's CPU time and allocations so far.
type usage struct {
	CPU    time.Duration `json:"cpu_ns"`
	Allocs uint64        `json:"allocs"`
	Bytes  uint64        `json:"bytes"`
}

func (u usage) minus(v usage) usage {
	return usage{CPU: u.CPU - v.CPU, Allocs: u.Allocs - v.Allocs, Bytes: u.Bytes - v.Bytes}
}

func readUsage() usage {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	s := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return usage{
		CPU:    time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		Allocs: s[0].Value.Uint64(),
		Bytes:  s[1].Value.Uint64(),
	}
}
