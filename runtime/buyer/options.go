package buyer

import "github.com/adcpgen/adcpgen/runtime/retry"

// CallOption configures one call.
type CallOption func(*callSettings)

type callSettings struct {
	key     string
	retry   *retry.Policy
	noRetry bool
	conv    *Conversation
	wait    bool
	// checkRequest: the request is JSON from the caller (Invoke), decoded
	// strictly into the spec's request type before it is sent.
	checkRequest bool
	// progress sees each interim state while a task is awaited.
	progress func(*Reply)
	// noPin sends the request without the client's pin (Releases' own
	// get_adcp_capabilities).
	noPin bool
}

func (c *Client) settings(opts []CallOption) callSettings {
	s := callSettings{noRetry: c.noRetry}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// WithIdempotencyKey sets the call's idempotency_key (16 to 255 of
// A-Z a-z 0-9 _ . : -), for a caller that keeps the key to retry the same
// operation later, after a restart say. Without it, a tool that requires a
// key gets a fresh UUID v4 unless the request already carries one. A key
// given here and a different one in the request is an error.
func WithIdempotencyKey(key string) CallOption { return func(s *callSettings) { s.key = key } }

// CallRetryPolicy sets the retry policy of this call (see
// WithRetryPolicy).
func CallRetryPolicy(p retry.Policy) CallOption {
	return func(s *callSettings) { s.retry, s.noRetry = &p, false }
}

// NoRetry makes this call a single attempt.
func NoRetry() CallOption { return func(s *callSettings) { s.noRetry = true } }

// InConversation makes the call part of conv: it resends the seller's
// context id and records the one the seller answers with (see
// Conversation).
func InConversation(conv *Conversation) CallOption { return func(s *callSettings) { s.conv = conv } }

// WaitForCompletion makes a call whose answer is submitted or working
// wait for the task's final result by polling (see Wait); the call returns
// when the task completes, fails or asks for input, or when ctx ends.
func WaitForCompletion() CallOption { return func(s *callSettings) { s.wait = true } }

// OnProgress has f called with each interim state of a task the call
// waits for (WaitForCompletion, Wait, WaitTask): the call's own submitted
// or working answer, then every poll that finds the task still submitted
// or working, before the next wait. It runs on the calling goroutine, for
// a caller that reports progress (adcpgen call --wait prints it on
// stderr).
func OnProgress(f func(*Reply)) CallOption { return func(s *callSettings) { s.progress = f } }
