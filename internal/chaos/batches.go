package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// batchResult counts the unsigned JSON-RPC batches sent and those the
// seller ran (answered with a result rather than an error).
type batchResult struct{ sent, executed int }

// sendBatches posts unsigned batches holding a create_media_buy to each
// replica over MCP (announcing MCP 2025-03-26, whose transport still had
// batches) and A2A, with the buyers' API key and without.
func (r *runner) sendBatches(ctx context.Context) batchResult {
	var res batchResult
	for _, rep := range r.reps {
		for _, proto := range []string{"mcp", "a2a"} {
			for _, withKey := range []bool{true, false} {
				key := newKey("batch")
				args, _ := wire.Marshal(buyRequest(key, false, ""))
				call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":` + string(args) + `}}`
				url := rep.base() + "/mcp"
				if proto == "a2a" {
					call = `{"jsonrpc":"2.0","id":"1","method":"message/send","params":{"message":{"kind":"message","messageId":"m-` + key +
						`","role":"user","parts":[{"kind":"data","data":{"skill":"create_media_buy","input":` + string(args) + `}}]}}}`
					url = rep.base() + "/a2a"
				}
				res.sent++
				if r.batchRan(ctx, url, "["+call+"]", withKey) {
					res.executed++
				}
			}
		}
	}
	return res
}

// batchRan posts body and reports an answer holding a JSON-RPC result.
func (r *runner) batchRan(ctx context.Context, url, body string, withKey bool) bool {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
	if withKey {
		req.Header.Set("Authorization", "Bearer "+r.apiKey)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode == http.StatusOK && bytes.Contains(out, []byte(`"result"`))
}
