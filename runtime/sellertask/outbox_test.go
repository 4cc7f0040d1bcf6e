package sellertask_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/retry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// downReceiver is a buyer's webhook endpoint on a fixed loopback address
// that is down (nothing listening: connection refused) until up is called.
type downReceiver struct {
	addr string
	url  string
	mu   sync.Mutex
	keys map[string]int // idempotency keys handled, with how many times
	srv  *http.Server
}

func newDownReceiver(t *testing.T) *downReceiver {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &downReceiver{addr: ln.Addr().String(), keys: map[string]int{}}
	d.url = "http://" + d.addr + "/hooks/create_media_buy/op_9"
	ln.Close() // down
	t.Cleanup(func() {
		if d.srv != nil {
			d.srv.Close()
		}
	})
	return d
}

// up starts serving on the receiver's address: webhook.Receiver with the
// shared secret, counting the events handed to the handler by key.
func (d *downReceiver) up(t *testing.T) {
	t.Helper()
	h, err := webhook.NewHMAC([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	rc := webhook.NewReceiver(adcpt.Spec(), webhook.ReceiverOptions{HMAC: h})
	if err := webhook.On(rc, adcpt.Tools.CreateMediaBuy, func(_ context.Context, ev *webhook.Event[adcpt.CreateMediaBuyResponse, adcpt.CreateMediaBuySubmitted, adcpt.CreateMediaBuyWorking, task.None]) error {
		d.mu.Lock()
		d.keys[ev.Notification.IdempotencyKey]++
		d.mu.Unlock()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /hooks/{task_type}/{operation_id}", rc)
	ln, err := net.Listen("tcp", d.addr)
	if err != nil {
		t.Fatal(err)
	}
	d.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go d.srv.Serve(ln) //nolint:errcheck // closed by the cleanup
}

func (d *downReceiver) handled() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := map[string]int{}
	for k, n := range d.keys {
		out[k] = n
	}
	return out
}

// The lost webhooks: a receiver down while ten notifications are
// made (the sender's schedule spent its first attempts) gets every one of
// them once it is back, each once, each with its own idempotency_key.
func TestReceiverOutage(t *testing.T) {
	recv := newDownReceiver(t)
	sender := webhook.NewSender(webhook.SenderOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true},
		Retry: retry.Policy{InitialBackoff: 50 * time.Millisecond, MaxBackoff: 400 * time.Millisecond}})
	b, tasks, _ := syncSeller(t, sender)
	for i := range 10 {
		args := `{"idempotency_key":"k-outage-` + string(rune('a'+i)) + `-0123456789","packages":[{"product_id":"ctv","budget":5000}],` +
			`"push_notification_config":{"url":"` + recv.url + `","authentication":{"schemes":["HMAC-SHA256"],"credentials":"` + secret + `"}}}`
		if o := b.Call(t.Context(), "create_media_buy", args); o.Err != nil || o.CallErr != nil {
			t.Fatalf("create_media_buy: %+v %v", o.Err, o.CallErr)
		}
	}
	time.Sleep(2 * time.Second) // the outage: several attempts fail meanwhile
	if got := recv.handled(); len(got) != 0 {
		t.Fatalf("a down receiver handled %v", got)
	}
	recv.up(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := tasks.Wait(ctx); err != nil {
		t.Fatalf("the notifications were not all delivered: %v", err)
	}
	got := recv.handled()
	if len(got) != 10 {
		t.Fatalf("%d distinct notifications handled, want 10: %v", len(got), got)
	}
	for k, n := range got {
		if n != 1 {
			t.Errorf("notification %s handled %d times", k, n)
		}
	}
}

// clockFunc is a clock function as a sellerstore.Clock.
type clockFunc func() time.Time

func (c clockFunc) Now() time.Time { return c() }

// A seller on a clock set apart from the wall's (a sandbox on a compliance
// runner's dates, months behind or ahead) retries a refused webhook on its
// schedule: its first attempt, answered 503, is not read as the end of an
// outage as long as the clocks' gap.
func TestRetryOnAShiftedClock(t *testing.T) {
	for _, shift := range []time.Duration{-270 * 24 * time.Hour, 270 * 24 * time.Hour} {
		t.Run(shift.String(), func(t *testing.T) {
			var mu sync.Mutex
			posts := 0
			recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				posts++
				n := posts
				mu.Unlock()
				if n == 1 {
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				w.WriteHeader(http.StatusNoContent)
			}))
			defer recv.Close()
			sender := webhook.NewSender(webhook.SenderOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true},
				Retry: retry.Policy{InitialBackoff: 50 * time.Millisecond, MaxBackoff: 400 * time.Millisecond}})
			b, tasks, _ := syncSellerAt(t, sender, func() time.Time { return time.Now().Add(shift) })
			args := `{"idempotency_key":"k-shifted-clock-0123456789","packages":[{"product_id":"ctv","budget":5000}],` +
				`"push_notification_config":{"url":"` + recv.URL + `/hooks","authentication":{"schemes":["HMAC-SHA256"],"credentials":"` + secret + `"}}}`
			if o := b.Call(t.Context(), "create_media_buy", args); o.Err != nil || o.CallErr != nil {
				t.Fatalf("create_media_buy: %+v %v", o.Err, o.CallErr)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			if err := tasks.Wait(ctx); err != nil {
				t.Fatalf("the notification was not settled: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if posts != 2 {
				t.Fatalf("%d posts, want 2 (one refused with 503, one retried)", posts)
			}
		})
	}
}
