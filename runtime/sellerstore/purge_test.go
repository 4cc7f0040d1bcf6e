package sellerstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/storetest"
)

func TestPurgePeriodicallyRemovesExpiredRecords(t *testing.T) {
	clock := storetest.NewFakeClock(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	store := sellerstore.NewMemory(clock)
	ctx := context.Background()
	key := sellerstore.IdempotencyKey{Principal: "buyer", Tool: "create_media_buy", Key: "key-0123456789abcdef"}
	claim, err := store.Claim(ctx, sellerstore.ClaimRequest{IdempotencyKey: key, Fingerprint: "f", Lease: time.Minute, Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Complete(ctx, key, claim.Token, sellerstore.StoredResponse{Body: []byte(`{}`), Status: "completed"}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(3 * time.Hour) // window ended 2 h ago: past Keep (1 h)

	purged := make(chan sellerstore.Purged, 1)
	loopCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- sellerstore.PurgePeriodically(loopCtx, store, sellerstore.PurgeOptions{
			Every: time.Millisecond, Keep: time.Hour, Clock: clock,
			Report: func(n sellerstore.Purged, err error) {
				if err != nil {
					t.Errorf("purge: %v", err)
				}
				if n.Idempotency > 0 {
					select {
					case purged <- n:
					default:
					}
				}
			},
		})
	}()
	select {
	case n := <-purged:
		if n.Idempotency != 1 {
			t.Errorf("purged %+v, want one idempotency record", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no purge reported the expired record")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("PurgePeriodically after cancel: %v", err)
	}
	// Gone: the key is new again.
	again, err := store.Claim(ctx, sellerstore.ClaimRequest{IdempotencyKey: key, Fingerprint: "other", Lease: time.Minute, Retention: time.Hour})
	if err != nil || again.Outcome != sellerstore.Claimed {
		t.Fatalf("claim after purge: %+v, %v; want Claimed", again, err)
	}
}

func TestPurgePeriodicallyRefusesBadOptions(t *testing.T) {
	store := sellerstore.NewMemory(nil)
	for _, tc := range []struct {
		name string
		s    sellerstore.Store
		opts sellerstore.PurgeOptions
		want string
	}{
		{"no interval", store, sellerstore.PurgeOptions{Keep: time.Hour}, "must be positive"},
		{"no keep", store, sellerstore.PurgeOptions{Every: time.Hour}, "must be positive"},
		{"negative keep", store, sellerstore.PurgeOptions{Every: time.Hour, Keep: -time.Hour}, "must be positive"},
		{"nil store", nil, sellerstore.PurgeOptions{Every: time.Hour, Keep: time.Hour}, "nil store"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := sellerstore.PurgePeriodically(context.Background(), tc.s, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
