package retry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// Defaults, from the retry ceiling of AdCP's recovery behaviour.
const (
	DefaultMaxAttempts    = 3
	DefaultMaxElapsed     = 300 * time.Second
	DefaultInitialBackoff = time.Second
	DefaultMaxBackoff     = 60 * time.Second
)

// Policy retries an operation while it fails with a transient AdCP
// error. It waits the error's RetryAfter when the seller sent one, else an
// exponential backoff with jitter; it stops after MaxAttempts calls or when
// the next wait would take the operation past MaxElapsed, and then returns a
// *ExhaustedError (escalate it as terminal). Errors that are not
// transient are returned at once. The zero value uses the defaults.
type Policy struct {
	// MaxAttempts is the most calls made, the first included (default 3).
	MaxAttempts int
	// MaxElapsed bounds the whole operation, calls and waits (default 300s).
	MaxElapsed time.Duration
	// InitialBackoff is the first backoff when no retry_after was sent
	// (default 1s); each later one doubles, up to MaxBackoff (default 60s).
	InitialBackoff time.Duration
	MaxBackoff     time.Duration
	// Jitter is the fraction of each backoff that is randomised: the wait is
	// drawn from [b*(1-Jitter), b]. 0 means 0.5; a negative value disables
	// jitter. It never applies to a seller's retry_after.
	Jitter float64

	// Retryable decides whether err is worth another attempt and how long
	// the seller asked to wait (0: use the backoff). nil means: an
	// *adcperr.Error (found with errors.As) whose Recovery is transient.
	Retryable func(err error) (wait time.Duration, ok bool)
	// Now and Sleep are the clock; tests replace them. Sleep must return
	// ctx.Err() when ctx ends first. nil means the real clock.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns a float in [0, 1) for jitter; nil means math/rand/v2.
	Rand func() float64
}

// ExhaustedError reports that a transient error outlasted the retry
// budget. It unwraps to the last error.
type ExhaustedError struct {
	Attempts int
	Elapsed  time.Duration
	// NextWait is the wait that would have been needed for another attempt
	// (0 when the attempt limit stopped the retries).
	NextWait time.Duration
	Last     error
}

func (e *ExhaustedError) Error() string {
	msg := fmt.Sprintf("giving up after %d attempts in %s", e.Attempts, e.Elapsed.Round(time.Millisecond))
	if e.NextWait > 0 {
		msg += fmt.Sprintf(" (the next wait of %s would pass the time budget)", e.NextWait)
	}
	return msg + ": " + e.Last.Error()
}

func (e *ExhaustedError) Unwrap() error { return e.Last }

// Action is always escalate: a transient error past its budget is treated
// as terminal.
func (e *ExhaustedError) Action() adcperr.Action { return adcperr.ActionEscalate }

// Do calls op until it succeeds, fails with an error that is not retryable,
// runs out of budget, or ctx ends (then ctx's error is returned, wrapped
// with the last failure). attempt counts from 1.
func (p Policy) Do(ctx context.Context, op func(ctx context.Context, attempt int) error) error {
	p = p.withDefaults()
	start := p.Now()
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := op(ctx, attempt)
		if err == nil {
			return nil
		}
		sent, ok := p.Retryable(err)
		if !ok {
			return err
		}
		elapsed := p.Now().Sub(start)
		if attempt >= p.MaxAttempts {
			return &ExhaustedError{Attempts: attempt, Elapsed: elapsed, Last: err}
		}
		wait := sent
		if wait <= 0 {
			wait = p.Backoff(attempt)
		}
		if elapsed+wait > p.MaxElapsed {
			return &ExhaustedError{Attempts: attempt, Elapsed: elapsed, NextWait: wait, Last: err}
		}
		if serr := p.Sleep(ctx, wait); serr != nil {
			return fmt.Errorf("retry wait interrupted after attempt %d: %w (last error: %w)", attempt, serr, err)
		}
	}
}

// Backoff is the wait after the given failed attempt (from 1) when the
// seller sent no retry_after: InitialBackoff doubled per attempt, capped at
// MaxBackoff, with jitter.
func (p Policy) Backoff(attempt int) time.Duration {
	p = p.withDefaults()
	b := float64(p.InitialBackoff) * math.Pow(2, float64(max(attempt-1, 0)))
	if b > float64(p.MaxBackoff) {
		b = float64(p.MaxBackoff)
	}
	if p.Jitter > 0 {
		b -= b * p.Jitter * p.Rand()
	}
	return time.Duration(b)
}

func (p Policy) withDefaults() Policy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = DefaultMaxAttempts
	}
	if p.MaxElapsed <= 0 {
		p.MaxElapsed = DefaultMaxElapsed
	}
	if p.InitialBackoff <= 0 {
		p.InitialBackoff = DefaultInitialBackoff
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = DefaultMaxBackoff
	}
	switch {
	case p.Jitter == 0:
		p.Jitter = 0.5
	case p.Jitter < 0:
		p.Jitter = 0
	case p.Jitter > 1:
		p.Jitter = 1
	}
	if p.Retryable == nil {
		p.Retryable = transientAdCP
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	if p.Sleep == nil {
		p.Sleep = sleepCtx
	}
	if p.Rand == nil {
		p.Rand = rand.Float64
	}
	return p
}

func transientAdCP(err error) (time.Duration, bool) {
	var ae *adcperr.Error
	if errors.As(err, &ae) && ae.Recovery == registry.Transient {
		return ae.RetryAfter, true
	}
	return 0, false
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
