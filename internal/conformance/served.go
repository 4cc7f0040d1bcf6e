package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// A seller is graded on the bundles of the releases it serves: what its
// get_adcp_capabilities lists in adcp.supported_versions (release
// precision: "3.0", "3.1", "3.2-beta.5"), or, for a seller that lists
// none (AdCP 3.0 had only major versions), the 3.0 release of each major
// version it lists.

// sellerCaps is what the grading reads of a seller's capabilities.
type sellerCaps struct {
	// Releases are the releases it serves, release precision.
	Releases []string
	// ProtocolMethodsRequiredFor are the protocol methods (JSON-RPC
	// methods such as tasks/cancel) it requires signed.
	ProtocolMethodsRequiredFor []string
}

// readCaps calls get_adcp_capabilities over MCP (a public tool) at
// a.url("mcp"), then again pinned to the newest release it lists, whose
// request_signing is the one a buyer of that release reads.
func readCaps(ctx context.Context, a *agent) (*sellerCaps, error) {
	caps, err := readCapsAt(ctx, a, "")
	if err != nil || len(caps.Releases) < 2 {
		return caps, err
	}
	newest, err := readCapsAt(ctx, a, caps.Releases[len(caps.Releases)-1])
	if err != nil {
		return nil, err
	}
	caps.ProtocolMethodsRequiredFor = newest.ProtocolMethodsRequiredFor
	return caps, nil
}

// readCapsAt calls get_adcp_capabilities with adcp_version pin (none when
// "").
func readCapsAt(ctx context.Context, a *agent, pin string) (*sellerCaps, error) {
	args := "{}"
	if pin != "" {
		args = `{"adcp_version":` + strconvQuote(pin) + `}`
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_adcp_capabilities","arguments":` + args + `}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url("mcp"), strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if a.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+a.APIKey)
	}
	resp, err := a.httpClient().Do(req)
	if err != nil {
		return nil, fmt.Errorf("get_adcp_capabilities: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("get_adcp_capabilities: %w", err)
	}
	return parseCaps(data)
}

// parseCaps reads the capabilities out of a tools/call answer, JSON or
// one SSE event.
func parseCaps(data []byte) (*sellerCaps, error) {
	if i := bytes.Index(data, []byte("data:")); i >= 0 && !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		data = data[i+len("data:"):]
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			data = data[:j]
		}
	}
	var rpc struct {
		Result struct {
			StructuredContent struct {
				Adcp struct {
					MajorVersions     []int    `json:"major_versions"`
					SupportedVersions []string `json:"supported_versions"`
				} `json:"adcp"`
				RequestSigning struct {
					ProtocolMethodsRequiredFor []string `json:"protocol_methods_required_for"`
				} `json:"request_signing"`
			} `json:"structuredContent"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &rpc); err != nil {
		return nil, fmt.Errorf("get_adcp_capabilities: %w: %.200s", err, data)
	}
	if rpc.Error != nil {
		return nil, fmt.Errorf("get_adcp_capabilities: %s", rpc.Error.Message)
	}
	c := rpc.Result.StructuredContent
	caps := &sellerCaps{Releases: c.Adcp.SupportedVersions, ProtocolMethodsRequiredFor: c.RequestSigning.ProtocolMethodsRequiredFor}
	if len(caps.Releases) == 0 {
		for _, m := range c.Adcp.MajorVersions {
			caps.Releases = append(caps.Releases, fmt.Sprintf("%d.0", m))
		}
	}
	if len(caps.Releases) == 0 {
		return nil, fmt.Errorf("get_adcp_capabilities lists no adcp.supported_versions or major_versions: %.300s", data)
	}
	return caps, nil
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// release is a bundle's release, release precision: "3.0.25" → "3.0",
// "3.2.0-beta.5" → "3.2-beta.5".
func release(bundle string) string {
	core, pre, _ := strings.Cut(bundle, "-")
	parts := strings.SplitN(core, ".", 3)
	if len(parts) < 2 {
		return bundle
	}
	r := parts[0] + "." + parts[1]
	if pre != "" {
		r += "-" + pre
	}
	return r
}

// servedBundles splits bundles into those of a release the seller serves
// and the others.
func servedBundles(bundles []string, caps *sellerCaps) (served, not []string) {
	for _, b := range bundles {
		if slices.Contains(caps.Releases, release(b)) {
			served = append(served, b)
		} else {
			not = append(not, b)
		}
	}
	return served, not
}
