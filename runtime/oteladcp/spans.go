package oteladcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// spanName is an operation's span name and kind. A call is named as the
// MCP conventions name a tool call ("tools/call get_products"), over A2A
// with its JSON-RPC method ("message/send get_products"); the webhook post
// as HTTP names a client request ("POST").
func spanName(op *observe.Op) (string, trace.SpanKind) {
	switch op.Kind {
	case observe.ServeCall:
		return callName(op), trace.SpanKindServer
	case observe.SendCall:
		return callName(op), trace.SpanKindClient
	case observe.PollTask:
		return "adcp.task.poll", trace.SpanKindClient
	case observe.ValidateRequest:
		return "adcp.validate", trace.SpanKindInternal
	case observe.RunHandler:
		return "adcp.handler", trace.SpanKindInternal
	case observe.ApplyIdempotency:
		return "adcp.idempotency", trace.SpanKindInternal
	case observe.CallStore:
		return "adcp.store." + op.Operation, trace.SpanKindInternal
	case observe.CreateTask:
		return "adcp.task.create", trace.SpanKindInternal
	case observe.UpdateTask:
		return "adcp.task.update", trace.SpanKindInternal
	case observe.EnqueueWebhook:
		// The outbox is a queue: a notification is produced with the
		// update, consumed by each attempt.
		return "adcp.webhook.enqueue", trace.SpanKindProducer
	case observe.DeliverWebhook:
		return "adcp.webhook.deliver", trace.SpanKindConsumer
	case observe.PostWebhook:
		return http.MethodPost, trace.SpanKindClient
	case observe.VerifySignature:
		return "adcp.signature.verify", trace.SpanKindInternal
	}
	return "adcp." + op.Kind.String(), trace.SpanKindInternal
}

func callName(op *observe.Op) string {
	method := toolsCall
	if op.Transport == "a2a" {
		method = messageSend
	}
	if op.Tool == "" {
		return method
	}
	return method + " " + op.Tool
}

// protocolAttrs are the semantic conventions' attributes of a call: MCP's
// over MCP, JSON-RPC's over A2A.
func protocolAttrs(out []attribute.KeyValue, transport string) []attribute.KeyValue {
	if transport == "a2a" {
		return append(out, keyRPCSystem.String(jsonrpc), keyRPCMethod.String(messageSend))
	}
	return append(out, keyMCPMethod.String(toolsCall))
}

// toolName is the tool attribute: "" (a tool the seller does not serve)
// is _OTHER.
func toolName(op *observe.Op) string {
	if op.Tool == "" {
		return other
	}
	return op.Tool
}

// startAttrs appends the attributes an operation's span starts with to
// out (nil: a new slice).
func startAttrs(op *observe.Op, out []attribute.KeyValue) []attribute.KeyValue {
	if out == nil {
		out = make([]attribute.KeyValue, 0, 8)
	}
	switch op.Kind {
	case observe.ServeCall, observe.SendCall:
		out = protocolAttrs(out, op.Transport)
		out = append(out, keyTool.String(toolName(op)), keyOperation.String(executeTool),
			keyTransport.String(op.Transport), keyRelease.String(op.Release))
		if op.Signature != "" {
			out = append(out, keyVerdict.String(op.Signature))
		}
	case observe.PollTask:
		out = append(out, keyTool.String(toolName(op)), keyTransport.String(op.Transport), keyRelease.String(op.Release), keyTaskID.String(op.TaskID))
	case observe.ValidateRequest, observe.RunHandler, observe.ApplyIdempotency, observe.CreateTask, observe.VerifySignature:
		if op.Tool != "" {
			out = append(out, keyTool.String(op.Tool))
		}
	case observe.UpdateTask, observe.EnqueueWebhook, observe.DeliverWebhook:
		out = append(out, keyTool.String(toolName(op)), keyTaskID.String(op.TaskID), keyStatus.String(status(op.Status)))
		if op.Kind == observe.DeliverWebhook {
			out = append(out, keyAttempts.Int(op.Attempts))
		}
	case observe.CallStore:
		out = append(out, keyStoreOp.String(op.Operation))
	case observe.PostWebhook:
		out = append(out, keyHTTPMethod.String(http.MethodPost))
		if op.Attempt > 0 {
			out = append(out, keyAttempt.Int(op.Attempt))
		}
		host, port, err := net.SplitHostPort(op.Host)
		if err != nil {
			host, port = op.Host, ""
		}
		out = append(out, keyServerAddr.String(host))
		if p, err := strconv.Atoi(port); err == nil {
			out = append(out, keyServerPort.Int(p))
		}
	}
	return out
}

// endAttrs appends the attributes an operation's span ends with, its
// outcome, to out (nil: a new slice).
func endAttrs(op *observe.Op, out []attribute.KeyValue) []attribute.KeyValue {
	if out == nil {
		out = make([]attribute.KeyValue, 0, 6)
	}
	switch op.Kind {
	case observe.ServeCall, observe.SendCall, observe.PollTask, observe.RunHandler, observe.ApplyIdempotency, observe.ValidateRequest:
		if op.Status != "" {
			out = append(out, keyStatus.String(status(op.Status)))
		}
		if op.Replayed {
			out = append(out, keyReplayed.Bool(true))
		}
		if op.Attempts > 0 {
			out = append(out, keyAttempts.Int(op.Attempts))
		}
		if op.Kind == observe.ApplyIdempotency && op.Outcome != "" {
			out = append(out, keyIdempotency.String(op.Outcome))
		}
	case observe.CallStore:
		if op.Outcome != "" {
			out = append(out, keyIdempotency.String(op.Outcome))
		}
	case observe.UpdateTask, observe.EnqueueWebhook:
	case observe.DeliverWebhook:
		out = append(out, keyWebhook.String(op.Outcome))
		if op.HTTPStatus != 0 {
			out = append(out, keyHTTPStatus.Int(op.HTTPStatus))
		}
	case observe.PostWebhook:
		if op.HTTPStatus != 0 {
			out = append(out, keyHTTPStatus.Int(op.HTTPStatus))
		}
	case observe.VerifySignature:
		out = append(out, keyVerdict.String(op.Outcome))
		if op.Code != "" {
			out = append(out, keySigCode.String(op.Code))
		}
		if et := errorType(op); et != "" {
			out = append(out, keyErrorType.String(et))
		}
		return out
	}
	if op.Code != "" {
		out = append(out, keyCode.String(op.Code))
	}
	if op.Recovery != "" {
		out = append(out, keyRecovery.String(op.Recovery))
	}
	if et := errorType(op); et != "" {
		out = append(out, keyErrorType.String(et))
	}
	return out
}

// errorType is the operation's error.type, "" when it succeeded: tool_error
// for an AdCP error answer (the MCP conventions' value for a tool result
// with isError), the HTTP status of a refused webhook post, else a class
// of the failure: never its text.
func errorType(op *observe.Op) string {
	switch {
	case op.Kind == observe.VerifySignature:
		if op.Outcome == "refused" || op.Outcome == "unavailable" {
			return op.Outcome
		}
		return ""
	case op.Code != "":
		return toolError
	case op.Err == nil:
		if op.Kind == observe.PostWebhook && op.HTTPStatus >= 300 {
			return strconv.Itoa(op.HTTPStatus)
		}
		return ""
	}
	return errorClass(op.Err, op.HTTPStatus)
}

// errorClass names a failure by what it is, with a bounded set of values.
func errorClass(err error, httpStatus int) string {
	var te *buyer.TransportError
	var de *webhook.DeliveryError
	var sde *buyer.SellerDataError
	var tke *buyer.TaskError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.As(err, &te):
		if te.StatusCode != 0 {
			return strconv.Itoa(te.StatusCode)
		}
		return "transport"
	case errors.As(err, &sde):
		return "seller_data"
	case errors.As(err, &tke):
		return "task_" + status(string(tke.Status))
	case errors.As(err, &de):
		if de.Status != 0 {
			return strconv.Itoa(de.Status)
		}
		return "delivery"
	case httpStatus != 0:
		return strconv.Itoa(httpStatus)
	case errors.Is(err, sellerstore.ErrClaimLost):
		return "claim_lost"
	case errors.Is(err, sellerstore.ErrTaskFinal):
		return "task_final"
	case errors.Is(err, sellerstore.ErrExists):
		return "exists"
	case errors.Is(err, sellerstore.ErrNotFound):
		return "not_found"
	}
	return fmt.Sprintf("%T", err)
}
