package a2aclient

import (
	"context"
	"fmt"
	"sync"

	"github.com/adcpgen/adcpgen/runtime/rawrpc"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// slot receives the raw response of one call: its request's id and the
// messages of its response body.
type slot struct {
	mu       sync.Mutex
	reqID    string // IDKey of the request sent
	status   int    // HTTP status of the response
	messages [][]byte
	parsed   map[int]*rawrpc.Response // messages[i] read already
	requests int
	// maybeSent: a request may have reached the seller (a round trip
	// failed after the connection was made, or succeeded).
	maybeSent bool
	// trace is the trace context sent as HTTP headers (ToolCall.Trace).
	trace map[string]string
}

type slotKey struct{}

func withSlot(ctx context.Context, s *slot) context.Context {
	return context.WithValue(ctx, slotKey{}, s)
}

func slotFrom(ctx context.Context) *slot {
	s, _ := ctx.Value(slotKey{}).(*slot)
	return s
}

func (s *slot) sent(id string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqID, s.status = id, status
	s.requests++
	s.messages, s.parsed = nil, nil // only the last request's answer counts
}

// failed notes a round trip that failed; sent says whether the request may
// have left.
func (s *slot) failed(sent bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maybeSent = s.maybeSent || sent
}

// delivery reports whether a request may have reached the seller and the
// last HTTP status.
func (s *slot) delivery() (bool, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maybeSent || s.requests > 0, s.status
}

func (s *slot) add(msg []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.messages = append(s.messages, msg)
}

// addParsed is add for a message rawrpc.Parse read already as r.
func (s *slot) addParsed(msg []byte, r *rawrpc.Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parsed == nil {
		s.parsed = map[int]*rawrpc.Response{}
	}
	s.parsed[len(s.messages)] = r
	s.messages = append(s.messages, msg)
}

// parse checks message i against the request it answers.
func (s *slot) parse(method string, i int) (*rawrpc.Response, error) {
	s.mu.Lock()
	msg, r := s.messages[i], s.parsed[i]
	s.mu.Unlock()
	if r == nil {
		var err error
		if r, err = rawrpc.Parse(msg); err != nil {
			return nil, fmt.Errorf("a2aclient: %s: %w", method, err)
		}
	}
	if r.Error != nil && wire.Lenient(r.ID).IsNull() {
		// JSON-RPC 2.0: a server that cannot tell the request's id (a body
		// refused before it was read whole) answers with id null; this
		// HTTP exchange carried one request, so it is the answer.
		return r, nil
	}
	key, err := rawrpc.IDKey(r.ID)
	if err != nil {
		return nil, fmt.Errorf("a2aclient: %s: %w", method, err)
	}
	if key != s.reqID {
		return nil, fmt.Errorf("a2aclient: %s: %w at /id: response id %s does not answer the request", method, rawrpc.ErrMalformed, r.ID)
	}
	return r, nil
}

// single returns the one response of a non-streaming call; sdkErr is what
// a2a-go made of it.
func (s *slot) single(ctx context.Context, method string, sdkErr error) (*rawrpc.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("a2aclient: %s: %w", method, err)
	}
	s.mu.Lock()
	msgs, status := s.messages, s.status
	s.mu.Unlock()
	if len(msgs) == 1 {
		// a2a-go's verdict (a JSON-RPC error without its data, a result it
		// could not decode, an HTTP status) is in the bytes; the typed step
		// judges them.
		return s.parse(method, 0)
	}
	if sdkErr != nil {
		return nil, fmt.Errorf("a2aclient: %s: %w", method, sdkErr)
	}
	return nil, fmt.Errorf("a2aclient: %s (HTTP %d): %w", method, status, rawrpc.ErrNoResponse)
}

// stream returns the events of a streaming call. When a2a-go stopped
// early for a reason other than a JSON-RPC error event, the events received
// so far come with its error.
func (s *slot) stream(ctx context.Context, method string, sdkErr error) ([]*rawrpc.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("a2aclient: %s: %w", method, err)
	}
	s.mu.Lock()
	msgs, status := s.messages, s.status
	s.mu.Unlock()
	if len(msgs) == 0 {
		if sdkErr != nil {
			return nil, fmt.Errorf("a2aclient: %s: %w", method, sdkErr)
		}
		return nil, fmt.Errorf("a2aclient: %s (HTTP %d): %w", method, status, rawrpc.ErrNoResponse)
	}
	out := make([]*rawrpc.Response, 0, len(msgs))
	for i := range msgs {
		r, err := s.parse(method, i)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
		out = append(out, r)
	}
	if sdkErr != nil && out[len(out)-1].Error == nil {
		return out, fmt.Errorf("a2aclient: %s: stopped after %d events: %w", method, len(out), sdkErr)
	}
	return out, nil
}
