// Package mcpsdk connects the AdCP runtime to the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk): extraction from the results and
// errors ClientSession.CallTool returns, and *mcp.CallToolResult and
// *jsonrpc.Error values for tool handlers.
//
// The SDK decodes structuredContent into Go maps, which lose duplicate keys,
// key order and the precision of large numbers. Where bytes matter (the
// typed step, an audit log), extract from the raw JSON-RPC result with
// runtime.ExtractJSONRPC instead.
package mcpsdk

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Extract runs MCP extraction (runtime.Extractor.MCP) on a CallToolResult.
func Extract(x runtime.Extractor, res *mcp.CallToolResult) (*runtime.Result, error) {
	if res == nil {
		return nil, errors.New("mcpsdk: nil CallToolResult")
	}
	body, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("mcpsdk: encoding the CallToolResult: %w", err)
	}
	return x.MCP(body), nil
}

// ExtractCall handles what ClientSession.CallTool returned. A JSON-RPC error
// (an *jsonrpc.Error anywhere in err's chain, as the reserved codes -32029,
// -32028 and -32027 arrive) is extracted from error.data.adcp_error; any
// other non-nil err is returned as is, since it carries no AdCP error.
func ExtractCall(x runtime.Extractor, res *mcp.CallToolResult, err error) (*runtime.Result, error) {
	if err != nil {
		var wire *jsonrpc.Error
		if !errors.As(err, &wire) {
			return nil, err
		}
		body, merr := json.Marshal(struct {
			Error *jsonrpc.Error `json:"error"`
		}{wire})
		if merr != nil {
			return nil, fmt.Errorf("mcpsdk: encoding the JSON-RPC error: %w", merr)
		}
		return x.JSONRPC(body), nil
	}
	return Extract(x, res)
}

// DecodeCall extracts what CallTool returned with the zero Extractor and
// decodes the data into T with its strict decoder; failures come back as
// the *runtime.Error or a runtime sentinel (see runtime.Result.Failure).
func DecodeCall[T any, PT runtime.Decoder[T]](res *mcp.CallToolResult, err error) (*T, error) {
	r, err := ExtractCall(runtime.Extractor{}, res, err)
	if err != nil {
		return nil, err
	}
	return runtime.DecodeResult[T, PT](r)
}

// ToolSuccess builds the CallToolResult of runtime.NewToolSuccess.
func ToolSuccess(summary string, data any) (*mcp.CallToolResult, error) {
	r, err := runtime.NewToolSuccess(summary, data)
	if err != nil {
		return nil, err
	}
	return toSDK(r), nil
}

// ToolError builds the CallToolResult of runtime.NewToolError: return it
// from a tool handler with a nil error.
func ToolError(e *runtime.Error, terse string) (*mcp.CallToolResult, error) {
	r, err := runtime.NewToolError(e, terse)
	if err != nil {
		return nil, err
	}
	return toSDK(r), nil
}

func toSDK(r *runtime.ToolResult) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: r.IsError}
	for _, c := range r.Content {
		out.Content = append(out.Content, &mcp.TextContent{Text: c.Text})
	}
	if r.StructuredContent != nil {
		out.StructuredContent = r.StructuredContent
	}
	return out
}

// JSONRPCError builds the transport-level error of runtime.NewJSONRPCError
// (reserved codes only). Returned as the error of a handler registered with
// Server.AddTool, the SDK sends it as the JSON-RPC error response.
func JSONRPCError(e *runtime.Error) (*jsonrpc.Error, error) {
	je, err := runtime.NewJSONRPCError(e)
	if err != nil {
		return nil, err
	}
	return &jsonrpc.Error{Code: je.Code, Message: je.Message, Data: je.Data}, nil
}
