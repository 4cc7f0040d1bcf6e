package oteladcp

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
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
	in.deliveries = count("adcp.webhook.deliveries", "{attempt}", "Webhook delivery attempts, by outcome (delivered; retrying: failed, tried again later; failed: given up).")
	in.deliveryAge = hist("adcp.webhook.delivery.age", "Age of a webhook's notification at the end of a delivery attempt.", ageBuckets)
	in.pendingDeliveries = gauge("adcp.webhook.pending", "{delivery}", "Webhooks in the outbox, neither delivered nor given up (this process's enqueues less its final attempts).")
	in.store = hist("adcp.store.operation.duration", "Duration of the seller store's calls.", storeBuckets)
	return in, errors.Join(errs...)
}

// enabled reports whether any metric of an operation of kind records.
func (in *instruments) enabled(ctx context.Context, kind observe.OpKind) bool {
	switch kind {
	case observe.ServeCall, observe.SendCall:
		return in.mcpServer.Enabled(ctx) || in.rpcServer.Enabled(ctx) || in.mcpClient.Enabled(ctx) || in.rpcClient.Enabled(ctx)
	case observe.ApplyIdempotency:
		return in.idempotency.Enabled(ctx)
	case observe.VerifySignature:
		return in.signatures.Enabled(ctx)
	case observe.CreateTask, observe.UpdateTask:
		return in.pendingTasks.Enabled(ctx)
	case observe.DeliverWebhook:
		return in.deliveries.Enabled(ctx) || in.deliveryAge.Enabled(ctx) || in.pendingDeliveries.Enabled(ctx)
	case observe.EnqueueWebhook:
		return in.pendingDeliveries.Enabled(ctx)
	case observe.CallStore:
		return in.store.Enabled(ctx)
	}
	return false
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
		if !h.Enabled(ctx) {
			return
		}
		k := setKey{kind: op.Kind, transport: op.Transport, tool: toolName(op), release: op.Release, status: op.Status, code: op.Code, errType: errorType(op)}
		h.Record(ctx, d.Seconds(), o.sets.get(k, func() []attribute.KeyValue {
			attrs := protocolAttrs(make([]attribute.KeyValue, 0, 10), k.transport)
			attrs = append(attrs, keyTool.String(k.tool), keyOperation.String(executeTool), keyTransport.String(k.transport), keyRelease.String(k.release))
			if k.status != "" {
				attrs = append(attrs, keyStatus.String(status(k.status)))
			}
			if k.code != "" {
				attrs = append(attrs, keyCode.String(k.code))
			}
			if k.errType != "" {
				attrs = append(attrs, keyErrorType.String(k.errType))
			}
			return attrs
		}))
	case observe.ApplyIdempotency:
		k := setKey{kind: op.Kind, tool: toolName(op), status: op.Outcome}
		m.idempotency.Add(ctx, 1, o.sets.get(k, func() []attribute.KeyValue {
			return []attribute.KeyValue{keyIdempotency.String(k.status), keyTool.String(k.tool)}
		}))
	case observe.VerifySignature:
		k := setKey{kind: op.Kind, status: op.Outcome, code: op.Code}
		m.signatures.Add(ctx, 1, o.sets.get(k, func() []attribute.KeyValue {
			attrs := []attribute.KeyValue{keyVerdict.String(k.status)}
			if k.code != "" {
				attrs = append(attrs, keySigCode.String(k.code))
			}
			return attrs
		}))
	case observe.CreateTask, observe.UpdateTask:
		delta := int64(1)
		if op.Kind == observe.UpdateTask {
			if !task.Status(op.Status).Final() {
				return
			}
			delta = -1
		}
		if op.Err == nil {
			k := setKey{kind: observe.CreateTask, tool: toolName(op)}
			m.pendingTasks.Add(ctx, delta, o.sets.get(k, func() []attribute.KeyValue { return []attribute.KeyValue{keyTool.String(k.tool)} }))
		}
	case observe.EnqueueWebhook:
		if op.Err == nil {
			m.pendingDeliveries.Add(ctx, 1)
		}
	case observe.DeliverWebhook:
		if op.Outcome != "retrying" {
			m.pendingDeliveries.Add(ctx, -1)
		}
		k := setKey{kind: op.Kind, tool: toolName(op), status: status(op.Status), code: op.Outcome}
		attrs := o.sets.get(k, func() []attribute.KeyValue {
			return []attribute.KeyValue{keyWebhook.String(k.code), keyTool.String(k.tool), keyStatus.String(k.status)}
		})
		m.deliveries.Add(ctx, 1, attrs)
		if !op.Since.IsZero() {
			m.deliveryAge.Record(ctx, time.Since(op.Since).Seconds(), attrs)
		}
	case observe.CallStore:
		if !m.store.Enabled(ctx) {
			return
		}
		k := setKey{kind: op.Kind, tool: op.Operation, errType: errorType(op)}
		m.store.Record(ctx, d.Seconds(), o.sets.get(k, func() []attribute.KeyValue {
			attrs := []attribute.KeyValue{keyStoreOp.String(k.tool)}
			if k.errType != "" {
				attrs = append(attrs, keyErrorType.String(k.errType))
			}
			return attrs
		}))
	}
}

// setKey names the attribute set of one metric point: the values it is
// made of (each kind uses some of the fields).
type setKey struct {
	kind                                            observe.OpKind
	transport, tool, release, status, code, errType string
}

// attributeSets keeps the attribute set of each metric point made so far,
// as a ready option: a set is sorted and allocated once, not per call. The
// values are bounded (see docs/telemetry.md), and past maxSets points are
// made afresh each time.
type attributeSets struct {
	m sync.Map // setKey → metric.MeasurementOption
	n atomic.Int64
}

const maxSets = 4096

func (s *attributeSets) get(k setKey, attrs func() []attribute.KeyValue) metric.MeasurementOption {
	if v, ok := s.m.Load(k); ok {
		return v.(metric.MeasurementOption)
	}
	opt := metric.WithAttributeSet(attribute.NewSet(attrs()...))
	if s.n.Load() < maxSets {
		if _, loaded := s.m.LoadOrStore(k, opt); !loaded {
			s.n.Add(1)
		}
	}
	return opt
}
