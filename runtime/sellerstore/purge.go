package sellerstore

import (
	"context"
	"fmt"
	"time"
)

// PurgeOptions configure PurgePeriodically.
type PurgeOptions struct {
	// Every is the time between two purges; it must be positive.
	Every time.Duration
	// Keep is how long past its end a record stays: each purge uses the
	// cutoff now-Keep. Keep it well past the replay window, since a purged
	// key answers as a new one instead of IDEMPOTENCY_EXPIRED. It must be
	// positive.
	Keep time.Duration
	// Clock gives now for the cutoff (SystemClock when nil); the wait
	// between purges is always real time.
	Clock Clock
	// Report, when set, is told the outcome of every purge.
	Report func(Purged, error)
}

// PurgePeriodically purges s every opts.Every until ctx ends, then returns
// nil. Durable stores never delete on their own, so a long-running seller
// runs this (one replica is enough; Purge is safe to run from several). It
// returns an error at once when Every or Keep is not positive.
func PurgePeriodically(ctx context.Context, s Store, opts PurgeOptions) error {
	if s == nil {
		return fmt.Errorf("sellerstore: PurgePeriodically: nil store")
	}
	if opts.Every <= 0 || opts.Keep <= 0 {
		return fmt.Errorf("sellerstore: PurgePeriodically: Every (%v) and Keep (%v) must be positive", opts.Every, opts.Keep)
	}
	clock := opts.Clock
	if clock == nil {
		clock = SystemClock{}
	}
	tick := time.NewTicker(opts.Every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		n, err := s.Purge(ctx, clock.Now().Add(-opts.Keep))
		if err != nil && ctx.Err() != nil {
			return nil // the purge was cut short by the shutdown
		}
		if opts.Report != nil {
			opts.Report(n, err)
		}
	}
}
