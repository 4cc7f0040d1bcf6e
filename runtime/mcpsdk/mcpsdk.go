// Package mcpsdk connects the AdCP runtime to the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk) for code that holds go-sdk's
// values: extraction and typed decoding of what ClientSession.CallTool
// returns, with the Extractor you pass, and the *jsonrpc.Error of a
// reserved AdCP code for tool handlers.
//
// Most users want runtime/buyer: buyer.Call and the typed client call a
// tool, decode the answer strictly from the bytes the seller sent and
// follow its task to the end; this package is the layer under it for a
// program that already drives go-sdk's client itself. A seller on go-sdk
// answers with runtime/mcpserver's ResultOf, the builder seller.Server's
// MCP transport uses, so both send the same bytes.
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
	"github.com/adcpgen/adcpgen/runtime/seller/rpcerr"
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

// RPCError builds the transport-level error of rpcerr.New
// (reserved codes only). Returned as the error of a handler registered with
// Server.AddTool, the SDK sends it as the JSON-RPC error response.
func RPCError(e *adcperr.Error) (*jsonrpc.Error, error) {
	je, err := rpcerr.New(e)
	if err != nil {
		return nil, err
	}
	return &jsonrpc.Error{Code: je.Code, Message: je.Message, Data: je.Data}, nil
}
