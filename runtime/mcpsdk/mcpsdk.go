// Package mcpsdk connects the AdCP runtime to the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk): extraction and typed decoding of
// what ClientSession.CallTool returns, with the Extractor you pass, and
// *mcp.CallToolResult and *jsonrpc.Error values for tool handlers.
//
// The SDK decodes structuredContent into Go maps, which lose duplicate keys,
// key order and the precision of large numbers. Where bytes matter (the
// typed step, an audit log), give the raw JSON-RPC response to
// extract.Extractor.MCP instead.
package mcpsdk

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ExtractResult runs MCP extraction (extract.Extractor.MCP) on a
// CallToolResult.
func ExtractResult(x *extract.Extractor, res *mcp.CallToolResult) (*extract.Result, error) {
	body, err := resultJSON(res)
	if err != nil {
		return nil, err
	}
	return x.MCP(body), nil
}

func resultJSON(res *mcp.CallToolResult) ([]byte, error) {
	if res == nil {
		return nil, errors.New("mcpsdk: nil CallToolResult")
	}
	body, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("mcpsdk: encoding the CallToolResult: %w", err)
	}
	return body, nil
}

// ExtractCall handles what ClientSession.CallTool returned. A JSON-RPC error
// (an *jsonrpc.Error anywhere in err's chain, as the reserved codes -32029,
// -32028 and -32027 arrive) is extracted from error.data.adcp_error; any
// other non-nil err is returned as is, since it carries no AdCP error.
func ExtractCall(x *extract.Extractor, res *mcp.CallToolResult, err error) (*extract.Result, error) {
	body, err := callJSON(res, err)
	if err != nil {
		return nil, err
	}
	return x.MCP(body), nil
}

// DecodeCall extracts what CallTool returned, as ExtractCall does, and
// decodes the data into dst with its strict decoder (see
// extract.Extractor.DecodeMCP): failures come back as the *adcperr.Error,
// an extract sentinel, or err itself when it carries no AdCP error.
func DecodeCall(x *extract.Extractor, res *mcp.CallToolResult, err error, dst wire.Decodable) error {
	body, err := callJSON(res, err)
	if err != nil {
		return err
	}
	return x.DecodeMCP(body, dst)
}

// callJSON is the JSON extraction reads for a CallTool outcome: the
// CallToolResult, or a JSON-RPC response holding the *jsonrpc.Error.
func callJSON(res *mcp.CallToolResult, err error) ([]byte, error) {
	if err == nil {
		return resultJSON(res)
	}
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		return nil, err
	}
	body, merr := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", rpcErr})
	if merr != nil {
		return nil, fmt.Errorf("mcpsdk: encoding the JSON-RPC error: %w", merr)
	}
	return body, nil
}

// ToolSuccess builds the CallToolResult of seller.NewToolSuccess.
func ToolSuccess(summary string, data any) (*mcp.CallToolResult, error) {
	r, err := seller.NewToolSuccess(summary, data)
	if err != nil {
		return nil, err
	}
	return toSDK(r), nil
}

// ToolError builds the CallToolResult of seller.NewToolError: return it
// from a tool handler with a nil error.
func ToolError(e *adcperr.Error, terse string) (*mcp.CallToolResult, error) {
	r, err := seller.NewToolError(e, terse)
	if err != nil {
		return nil, err
	}
	return toSDK(r), nil
}

func toSDK(r *seller.ToolResult) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: r.IsError}
	for _, c := range r.Content {
		out.Content = append(out.Content, &mcp.TextContent{Text: c.Text})
	}
	if r.StructuredContent != nil {
		out.StructuredContent = r.StructuredContent
	}
	return out
}

// RPCError builds the transport-level error of seller.NewJSONRPCError
// (reserved codes only). Returned as the error of a handler registered with
// Server.AddTool, the SDK sends it as the JSON-RPC error response.
func RPCError(e *adcperr.Error) (*jsonrpc.Error, error) {
	je, err := seller.NewJSONRPCError(e)
	if err != nil {
		return nil, err
	}
	return &jsonrpc.Error{Code: je.Code, Message: je.Message, Data: je.Data}, nil
}
