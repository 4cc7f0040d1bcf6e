package mcpclient

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/adcpgen/adcpgen/runtime/rawrpc"
)

// recorder keeps the raw responses to claimed calls, by id.
type recorder struct {
	mu      sync.Mutex
	pending map[string]*entry // id key → the call waiting for it
}

type entry struct {
	claim *claim
	resp  *rawrpc.Response
	err   error // the response arrived but its envelope is malformed
}

// claim rides in a call's context and collects the ids of the requests
// sent for it (normally one), and what the transport saw of them.
type claim struct {
	rec *recorder
	ids []string // guarded by rec.mu
	// sent: a request may have reached the seller; status: the last HTTP
	// status seen (0 for none). Guarded by rec.mu.
	sent   bool
	status int
	// trace is the trace context sent as HTTP headers with each request.
	trace map[string]string
}

type claimKey struct{}

func withClaim(ctx context.Context, cl *claim) context.Context {
	return context.WithValue(ctx, claimKey{}, cl)
}

// claimFor returns the claim of ctx if it belongs to rec.
func claimFor(ctx context.Context, rec *recorder) *claim {
	cl, _ := ctx.Value(claimKey{}).(*claim)
	if cl == nil || cl.rec != rec {
		return nil
	}
	return cl
}

func newRecorder() *recorder { return &recorder{pending: map[string]*entry{}} }

// register notes that the request with id key was sent for cl.
func (r *recorder) register(cl *claim, key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cl.ids = append(cl.ids, key)
	r.pending[key] = &entry{claim: cl}
}

// record keeps msg if it answers a claimed request, and returns it parsed
// when it is the first answer to one (nil otherwise). Messages that are not
// responses (server requests and notifications) and responses nobody
// claimed are ignored.
func (r *recorder) record(msg []byte) *rawrpc.Response {
	resp, err := rawrpc.Parse(msg)
	var key string
	var ok bool
	if err == nil {
		k, kerr := rawrpc.IDKey(resp.ID)
		key, ok = k, kerr == nil
	} else {
		key, ok = responseID(msg)
	}
	if !ok {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.pending[key]
	if e == nil || e.resp != nil || e.err != nil {
		return nil // unclaimed, or a second answer: the first one stands, as in the SDK
	}
	e.resp, e.err = resp, err
	return resp
}

// recordEach records msg, ignoring what it yields (a bodytap framer).
func (r *recorder) recordEach(msg []byte) { r.record(msg) }

// recordResponse keeps a response the transport already parsed.
func (r *recorder) recordResponse(key string, resp *rawrpc.Response) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.pending[key]; e != nil && e.resp == nil && e.err == nil {
		e.resp = resp
	}
}

// attempted notes what became of a request sent for cl: whether it may
// have reached the seller, and the HTTP status of its answer (0 for none).
func (r *recorder) attempted(cl *claim, sent bool, status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cl.sent = cl.sent || sent
	if status != 0 {
		cl.status = status
	}
}

// delivery reports whether a request of cl may have reached the seller and
// the last HTTP status seen.
func (r *recorder) delivery(cl *claim) (sent bool, status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return cl.sent, cl.status
}

// result is the response to the last request sent for cl that has one.
func (r *recorder) result(cl *claim) (*rawrpc.Response, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(cl.ids) - 1; i >= 0; i-- {
		if e := r.pending[cl.ids[i]]; e != nil && (e.resp != nil || e.err != nil) {
			return e.resp, e.err
		}
	}
	return nil, nil
}

// release forgets cl's requests; late answers to them are ignored.
func (r *recorder) release(cl *claim) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range cl.ids {
		if e := r.pending[k]; e != nil && e.claim == cl {
			delete(r.pending, k)
		}
	}
	cl.ids = nil
}

// responseID reads the id of a JSON-RPC response leniently (as the SDK
// does), so that a response whose envelope Parse rejects still reaches its
// caller as an error. Requests and notifications have a method.
func responseID(msg []byte) (string, bool) {
	var probe struct {
		ID     json.RawMessage  `json:"id"`
		Method *json.RawMessage `json:"method"`
	}
	if json.Unmarshal(msg, &probe) != nil || probe.Method != nil || probe.ID == nil {
		return "", false
	}
	key, err := rawrpc.IDKey(probe.ID)
	return key, err == nil
}
