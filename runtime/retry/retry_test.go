package retry_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/retry"
)

// fakeClock records waits instead of sleeping.
type fakeClock struct {
	now   time.Time
	waits []time.Duration
}

func (c *fakeClock) Now() time.Time { return c.now }
func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	return nil
}

func policy(c *fakeClock) retry.Policy {
	return retry.Policy{Now: c.Now, Sleep: c.Sleep, Rand: func() float64 { return 0.5 }}
}

func transient(retryAfter time.Duration) error {
	return &adcperr.Error{Code: "RATE_LIMITED", Recovery: registry.Transient, RetryAfter: retryAfter}
}

func TestRetryPolicy(t *testing.T) {
	ctx := context.Background()
	t.Run("succeeds after transient failures, honouring retry_after", func(t *testing.T) {
		c := &fakeClock{now: time.Unix(0, 0)}
		calls := 0
		err := policy(c).Do(ctx, func(_ context.Context, attempt int) error {
			calls++
			if attempt < 3 {
				return transient(7 * time.Second)
			}
			return nil
		})
		if err != nil || calls != 3 || len(c.waits) != 2 || c.waits[0] != 7*time.Second {
			t.Fatalf("err %v, calls %d, waits %v", err, calls, c.waits)
		}
	})
	t.Run("three attempts by default, then escalate", func(t *testing.T) {
		c := &fakeClock{now: time.Unix(0, 0)}
		calls := 0
		err := policy(c).Do(ctx, func(context.Context, int) error { calls++; return transient(time.Second) })
		var ex *retry.ExhaustedError
		if !errors.As(err, &ex) || ex.Attempts != 3 || calls != 3 || ex.Action() != adcperr.ActionEscalate {
			t.Fatalf("err %v, calls %d", err, calls)
		}
		if !errors.Is(err, &adcperr.Error{Code: "RATE_LIMITED"}) {
			t.Errorf("exhausted error does not unwrap to the last AdCP error: %v", err)
		}
	})
	t.Run("backoff doubles with jitter when no retry_after", func(t *testing.T) {
		c := &fakeClock{now: time.Unix(0, 0)}
		p := policy(c)
		p.MaxAttempts = 5
		_ = p.Do(ctx, func(context.Context, int) error { return transient(0) })
		// Jitter 0.5 with Rand 0.5 takes a quarter off each step.
		want := []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second, 6 * time.Second}
		if len(c.waits) != len(want) {
			t.Fatalf("waits %v, want %v", c.waits, want)
		}
		for i := range want {
			if c.waits[i] != want[i] {
				t.Errorf("wait %d = %s, want %s", i, c.waits[i], want[i])
			}
		}
	})
	t.Run("cumulative budget stops a seller asking for an hour", func(t *testing.T) {
		c := &fakeClock{now: time.Unix(0, 0)}
		err := policy(c).Do(ctx, func(context.Context, int) error { return transient(time.Hour) })
		var ex *retry.ExhaustedError
		if !errors.As(err, &ex) || ex.Attempts != 1 || ex.NextWait != time.Hour || len(c.waits) != 0 {
			t.Fatalf("err %v, waits %v", err, c.waits)
		}
	})
	t.Run("budget counts time spent in calls", func(t *testing.T) {
		c := &fakeClock{now: time.Unix(0, 0)}
		p := policy(c)
		p.MaxAttempts = 10
		calls := 0
		err := p.Do(ctx, func(context.Context, int) error {
			calls++
			c.now = c.now.Add(100 * time.Second) // a slow seller
			return transient(time.Second)
		})
		var ex *retry.ExhaustedError
		if !errors.As(err, &ex) || calls != 3 {
			t.Fatalf("err %v after %d calls", err, calls)
		}
	})
	t.Run("correctable and terminal errors are not retried", func(t *testing.T) {
		for _, rec := range []registry.Recovery{registry.Correctable, registry.Terminal} {
			c := &fakeClock{now: time.Unix(0, 0)}
			calls := 0
			want := &adcperr.Error{Code: "X", Recovery: rec}
			err := policy(c).Do(ctx, func(context.Context, int) error { calls++; return want })
			if err != want || calls != 1 {
				t.Errorf("%s: err %v after %d calls", rec, err, calls)
			}
		}
	})
	t.Run("non-AdCP errors are returned at once", func(t *testing.T) {
		c := &fakeClock{now: time.Unix(0, 0)}
		boom := errors.New("connection refused")
		if err := policy(c).Do(ctx, func(context.Context, int) error { return boom }); err != boom {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("context cancellation interrupts the wait", func(t *testing.T) {
		c := &fakeClock{now: time.Unix(0, 0)}
		cctx, cancel := context.WithCancel(ctx)
		err := policy(c).Do(cctx, func(context.Context, int) error { cancel(); return transient(time.Second) })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
	})
	t.Run("real sleep honours the context", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		p := retry.Policy{}
		if err := p.Do(cctx, func(context.Context, int) error { return nil }); !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("custom retryable", func(t *testing.T) {
		c := &fakeClock{now: time.Unix(0, 0)}
		p := policy(c)
		p.Retryable = func(error) (time.Duration, bool) { return 2 * time.Second, true }
		p.MaxAttempts = 2
		err := p.Do(ctx, func(context.Context, int) error { return errors.New("flaky") })
		var ex *retry.ExhaustedError
		if !errors.As(err, &ex) || len(c.waits) != 1 || c.waits[0] != 2*time.Second {
			t.Fatalf("err %v waits %v", err, c.waits)
		}
	})
}

func TestBackoffBounds(t *testing.T) {
	p := retry.Policy{Rand: func() float64 { return 0.999 }, Jitter: 1}
	if d := p.Backoff(40); d > retry.DefaultMaxBackoff || d < 0 {
		t.Errorf("backoff(40) = %s", d)
	}
	p = retry.Policy{Jitter: -1}
	if d := p.Backoff(3); d != 4*time.Second {
		t.Errorf("backoff without jitter = %s, want 4s", d)
	}
}
