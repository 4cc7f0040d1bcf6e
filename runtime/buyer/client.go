package buyer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/release"
	"github.com/adcpgen/adcpgen/runtime/retry"
)

// Client calls the tools of one seller agent for one spec version. Build it
// with New from the Spec of the package you generated and a Transport; it
// is safe for concurrent use.
type Client struct {
	spec      *registry.Spec
	transport Transport
	x         *extract.Extractor
	retry     retry.Policy
	noRetry   bool
	poll      Polling
	poller    TaskPoller
	// statusTool overrides the status tool's name ("" derives it).
	statusTool string
	// payloadCap is WithMaxPayload's (0: the extractor's default).
	payloadCap int

	// statusMu guards polled: the status tool chosen from the seller's
	// list ("" until one was read).
	statusMu sync.Mutex
	polled   string

	// contextOK caches, per tool, whether its request schema lets a
	// context_id member in (see contextAllowed).
	contextOK sync.Map

	// signer signs calls as the seller asks (WithRequestSigning).
	signer *callSigning
	// obs is WithObserver's (nil: none).
	obs observe.Observer

	// rel is the client's pin, the spec's release (zero: none; see
	// release.go); held are the Specs of other releases (WithReleases);
	// peer is what the client read of the seller's releases.
	rel  release.Release
	held []*registry.Spec
	peer *peer
}

// ClientOption configures a Client.
type ClientOption func(*Client)

// WithRetryPolicy sets how calls are retried (attempts, time ceiling,
// backoff). The zero Policy means retry's defaults: 3 attempts within 300
// s. Its Retryable, when set, is consulted only for failures the client
// already deems safe to retry.
func WithRetryPolicy(p retry.Policy) ClientOption {
	return func(c *Client) { c.retry, c.noRetry = p, false }
}

// WithoutRetries makes every call a single attempt.
func WithoutRetries() ClientOption { return func(c *Client) { c.noRetry = true } }

// WithObserver has o told of every call and every poll the client makes
// (runtime/oteladcp makes OpenTelemetry client spans and metrics of them),
// and the trace context o injects sent with each (ToolCall.Trace). Without
// it nothing is observed, at no cost.
func WithObserver(o observe.Observer) ClientOption { return func(c *Client) { c.obs = o } }

// WithPolling sets the polling intervals of Wait (see Polling).
func WithPolling(p Polling) ClientOption { return func(c *Client) { c.poll = p } }

// WithTaskPoller replaces how Wait reads a task's state (the default polls
// the spec's status tool through the Transport).
func WithTaskPoller(p TaskPoller) ClientOption { return func(c *Client) { c.poller = p } }

// WithStatusTool names the status tool Wait polls, instead of the one
// the seller lists (see Wait).
func WithStatusTool(name string) ClientOption { return func(c *Client) { c.statusTool = name } }

// WithMaxPayload caps the seller's payload (MCP structuredContent and each
// text item) at n bytes instead of AdCP's 1 MiB (extract.DefaultPayloadCap),
// for a seller known to answer more (a large get_products). A payload over
// the cap is refused with an error wrapping extract.ErrTooLarge that names
// its size and the cap. It is ignored with WithExtractor, whose extractor
// has a cap of its own.
func WithMaxPayload(n int) ClientOption { return func(c *Client) { c.payloadCap = n } }

// WithExtractor replaces the extractor built from the spec, to pass
// extract options (a payload cap, the recovery of unlisted codes). It must
// have been built from the same Spec.
func WithExtractor(x *extract.Extractor) ClientOption { return func(c *Client) { c.x = x } }

// Polling bounds how often Wait asks for a task's state: the first wait is
// Interval, each later one doubles up to MaxInterval. A seller's hint (see
// Reply.PollAfter) replaces the computed wait, clamped to [Interval,
// MaxInterval]. Zero values mean 1 s and 30 s.
type Polling struct {
	Interval    time.Duration
	MaxInterval time.Duration
}

// Default polling bounds.
const (
	DefaultPollInterval    = time.Second
	DefaultMaxPollInterval = 30 * time.Second
)

func (p Polling) withDefaults() Polling {
	if p.Interval <= 0 {
		p.Interval = DefaultPollInterval
	}
	if p.MaxInterval <= 0 {
		p.MaxInterval = DefaultMaxPollInterval
	}
	if p.MaxInterval < p.Interval {
		p.MaxInterval = p.Interval
	}
	return p
}

// New returns a client for the spec version spec describes (a generated
// package's Spec()) that talks to a seller over t.
func New(spec *registry.Spec, t Transport, opts ...ClientOption) (*Client, error) {
	if spec == nil {
		return nil, errors.New("buyer: nil spec")
	}
	if t == nil {
		return nil, errors.New("buyer: nil transport")
	}
	c := &Client{spec: spec, transport: t, peer: &peer{}}
	c.rel, _ = release.Of(spec.Version())
	for _, o := range opts {
		o(c)
	}
	if c.x == nil {
		c.x = extract.New(spec, extract.WithPayloadCap(c.payloadCap))
	} else if c.x.Spec() != spec {
		return nil, errors.New("buyer: the extractor was built from another spec")
	}
	c.poll = c.poll.withDefaults()
	if c.poller == nil {
		if p, ok := t.(TaskPoller); ok {
			c.poller = p
		} else {
			c.poller = statusToolPoller{}
		}
	}
	switch t.Protocol() {
	case MCP, A2A:
	default:
		return nil, fmt.Errorf("buyer: transport protocol %q is neither %q nor %q", t.Protocol(), MCP, A2A)
	}
	return c, nil
}

// Spec is the spec version the client speaks.
func (c *Client) Spec() *registry.Spec { return c.spec }

// Transport is the client's transport.
func (c *Client) Transport() Transport { return c.transport }

// ToolNames lists the seller's tools when the transport can (see
// ToolLister).
func (c *Client) ToolNames(ctx context.Context) ([]string, error) {
	l, ok := c.transport.(ToolLister)
	if !ok {
		return nil, fmt.Errorf("buyer: transport %T cannot list tools", c.transport)
	}
	names, err := l.ToolNames(ctx)
	if err != nil {
		return nil, fmt.Errorf("buyer: listing tools: %w", err)
	}
	return names, nil
}
