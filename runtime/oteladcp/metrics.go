package oteladcp

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// instruments are the metrics docs/telemetry.md lists.
type instruments struct {
	mcpServer, rpcServer metric.Float64Histogram // a served call's duration, by transport
	mcpClient, rpcClient metric.Float64Histogram // a buyer's call's duration, by transport
	idempotency          metric.Int64Counter     // calls the idempotency layer acted on, by outcome
	signatures           metric.Int64Counter     // request signatures checked, by verdict
	pendingTasks         metric.Int64UpDownCounter
	deliveries           metric.Int64Counter // webhook deliveries ended, by outcome
	deliveryAge          metric.Float64Histogram
	pendingDeliveries    metric.Int64UpDownCounter
	store                metric.Float64Histogram
}

// Bucket boundaries, in seconds: the MCP conventions' for operation
// durations, the JSON-RPC (RPC) conventions' for calls, the database
// conventions' for store calls, and minutes to an hour for a webhook's age.
var (
	mcpBuckets   = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}
	rpcBuckets   = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}
	storeBuckets = []float64{0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10}
	ageBuckets   = []float64{0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600}
)

func newInstruments(m metric.Meter) (instruments, error) {
	var in instruments
	var errs []error
	hist := func(name, desc string, bounds []float64) metric.Float64Histogram {
		h, err := m.Float64Histogram(name, metric.WithUnit("s"), metric.WithDescription(desc), metric.WithExplicitBucketBoundaries(bounds...))
		errs = append(errs, err)
		return h
	}
	count := func(name, unit, desc string) metric.Int64Counter {
		c, err := m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		errs = append(errs, err)
		return c
	}
	gauge := func(name, unit, desc string) metric.Int64UpDownCounter {
		c, err := m.Int64UpDownCounter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		errs = append(errs, err)
		return c
	}
	in.mcpServer = hist("mcp.server.operation.duration", "Duration of the AdCP tool calls a seller served over MCP.", mcpBuckets)
	in.rpcServer = hist("rpc.server.call.duration", "Duration of the AdCP tool calls a seller served over A2A (JSON-RPC).", rpcBuckets)
	in.mcpClient = hist("mcp.client.operation.duration", "Duration of the AdCP tool calls a buyer made over MCP, retries included.", mcpBuckets)
	in.rpcClient = hist("rpc.client.call.duration", "Duration of the AdCP tool calls a buyer made over A2A (JSON-RPC), retries included.", rpcBuckets)
	in.idempotency = count("adcp.idempotency.requests", "{request}", "Mutating calls the idempotency layer acted on, by outcome (claimed, replay, conflict, ...).")
	in.signatures = count("adcp.signature.verifications", "{request}", "RFC 9421 request signatures checked, by verdict.")
	in.pendingTasks = gauge("adcp.task.pending", "{task}", "Async tasks created and not yet final (this process's creations less its final updates).")
	in.deliveries = count("adcp.webhook.deliveries", "{delivery}", "Webhook deliveries ended, by outcome (delivered, failed).")
	in.deliveryAge = hist("adcp.webhook.delivery.age", "Age of a webhook's notification when its delivery ended.", ageBuckets)
	in.pendingDeliveries = gauge("adcp.webhook.pending", "{delivery}", "Webhook deliveries under way (queued or posting).")
	in.store = hist("adcp.store.operation.duration", "Duration of the seller store's calls.", storeBuckets)
	return in, errors.Join(errs...)
}

// started records what an operation changes as it starts: a delivery is
// pending until it ends.
func (o *observer) started(ctx context.Context, op *observe.Op) {
	if op.Kind == observe.DeliverWebhook {
		o.m.pendingDeliveries.Add(ctx, 1)
	}
}

// record records an ended operation's metrics.
func (o *observer) record(ctx context.Context, op *observe.Op, d time.Duration) {
	m := &o.m
	switch op.Kind {
	case observe.ServeCall, observe.SendCall:
		h := m.mcpServer
		switch {
		case op.Kind == observe.ServeCall && op.Transport == "a2a":
			h = m.rpcServer
		case op.Kind == observe.SendCall && op.Transport == "a2a":
			h = m.rpcClient
		case op.Kind == observe.SendCall:
			h = m.mcpClient
		}
		attrs := protocolAttrs(make([]attribute.KeyValue, 0, 10), op.Transport)
		attrs = append(attrs, keyTool.String(toolName(op)), keyOperation.String(executeTool),
			keyTransport.String(op.Transport), keyRelease.String(op.Release))
		if op.Status != "" {
			attrs = append(attrs, keyStatus.String(status(op.Status)))
		}
		if op.Code != "" {
			attrs = append(attrs, keyCode.String(op.Code))
		}
		if et := errorType(op); et != "" {
			attrs = append(attrs, keyErrorType.String(et))
		}
		h.Record(ctx, d.Seconds(), metric.WithAttributes(attrs...))
	case observe.ApplyIdempotency:
		m.idempotency.Add(ctx, 1, metric.WithAttributes(keyIdempotency.String(op.Outcome), keyTool.String(toolName(op))))
	case observe.VerifySignature:
		attrs := []attribute.KeyValue{keyVerdict.String(op.Outcome)}
		if op.Code != "" {
			attrs = append(attrs, keySigCode.String(op.Code))
		}
		m.signatures.Add(ctx, 1, metric.WithAttributes(attrs...))
	case observe.CreateTask:
		if op.Err == nil {
			m.pendingTasks.Add(ctx, 1, metric.WithAttributes(keyTool.String(toolName(op))))
		}
	case observe.UpdateTask:
		if op.Err == nil && task.Status(op.Status).Final() {
			m.pendingTasks.Add(ctx, -1, metric.WithAttributes(keyTool.String(toolName(op))))
		}
	case observe.DeliverWebhook:
		m.pendingDeliveries.Add(ctx, -1)
		attrs := metric.WithAttributes(keyWebhook.String(op.Outcome), keyTool.String(toolName(op)), keyStatus.String(status(op.Status)))
		m.deliveries.Add(ctx, 1, attrs)
		if !op.Since.IsZero() {
			m.deliveryAge.Record(ctx, time.Since(op.Since).Seconds(), attrs)
		}
	case observe.CallStore:
		attrs := []attribute.KeyValue{keyStoreOp.String(op.Operation)}
		if et := errorType(op); et != "" {
			attrs = append(attrs, keyErrorType.String(et))
		}
		m.store.Record(ctx, d.Seconds(), metric.WithAttributes(attrs...))
	}
}
