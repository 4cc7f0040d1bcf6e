package oteladcp

import (
	"go.opentelemetry.io/otel/attribute"

	"github.com/adcpgen/adcpgen/runtime/task"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// The attributes, as docs/telemetry.md lists them: the semantic
// conventions' where one exists (MCP, JSON-RPC, HTTP, GenAI), adcp.* for
// AdCP's own vocabulary.
var (
	keyTool        = semconv.GenAIToolNameKey      // the AdCP tool (A2A skill)
	keyOperation   = semconv.GenAIOperationNameKey // execute_tool, on calls
	keyMCPMethod   = semconv.McpMethodNameKey      // tools/call
	keyRPCSystem   = semconv.RPCSystemNameKey      // jsonrpc, over A2A
	keyRPCMethod   = semconv.RPCMethodKey          // message/send, over A2A
	keyErrorType   = semconv.ErrorTypeKey
	keyHTTPMethod  = semconv.HTTPRequestMethodKey
	keyHTTPStatus  = semconv.HTTPResponseStatusCodeKey
	keyServerAddr  = semconv.ServerAddressKey
	keyServerPort  = semconv.ServerPortKey
	keyTransport   = attribute.Key("adcp.transport")
	keyRelease     = attribute.Key("adcp.release")
	keyStatus      = attribute.Key("adcp.task.status")
	keyTaskID      = attribute.Key("adcp.task.id")
	keyCode        = attribute.Key("adcp.error.code")
	keyRecovery    = attribute.Key("adcp.error.recovery")
	keyReplayed    = attribute.Key("adcp.replayed")
	keyAttempts    = attribute.Key("adcp.attempts")
	keyVerdict     = attribute.Key("adcp.signature.verdict")
	keySigCode     = attribute.Key("adcp.signature.error_code")
	keyIdempotency = attribute.Key("adcp.idempotency.outcome")
	keyStoreOp     = attribute.Key("adcp.store.operation")
	keyWebhook     = attribute.Key("adcp.webhook.outcome")
	keyAttempt     = attribute.Key("adcp.webhook.attempt")
)

// Values of the attributes above.
const (
	executeTool = "execute_tool" // gen_ai.operation.name of a tool call
	toolsCall   = "tools/call"   // mcp.method.name
	jsonrpc     = "jsonrpc"      // rpc.system.name
	messageSend = "message/send" // rpc.method of an A2A call
	toolError   = "tool_error"   // error.type of an AdCP error answer
	other       = "_OTHER"       // a value outside the known set
)

// status bounds a task status to AdCP's: any other value a peer sends is
// recorded as _OTHER.
func status(s string) string {
	if task.Status(s).Known() {
		return s
	}
	return other
}
