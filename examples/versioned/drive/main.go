// Command drive calls two replicas of the versioned seller with the typed
// buyer, over MCP and A2A: get_products and a synchronous create_media_buy,
// then an async create_media_buy submitted to the first replica and
// followed to completion on the second, and its replay on the second
// (same idempotency key: the first answer, byte for byte, marked
// replayed). It prints what it saw and exits 1 at the first surprise.
//
//	go run ./drive -a http://127.0.0.1:8081 -b http://127.0.0.1:8082 -key KEY
package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"example.com/versioned/adcp"

	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// buyJSON is a create_media_buy request valid in 3.1.19 and 3.2.0-beta.5;
// drive sets its po_number and idempotency_key per call.
const buyJSON = `{"account":{"account_id":"acct_example"},"brand":{"domain":"coffee.example"},` +
	`"start_time":"2027-01-04T00:00:00Z","end_time":"2027-01-31T23:59:59Z",` +
	`"packages":[{"product_id":"ctv_premium","pricing_option_id":"cpm_usd_fixed","budget":5000}]}`

func main() {
	a := flag.String("a", "", "the first replica's base URL (http://HOST:PORT)")
	b := flag.String("b", "", "the second replica's base URL")
	key := flag.String("key", "", "the buyers' API key")
	flag.Parse()
	if *a == "" || *b == "" || *key == "" {
		fmt.Fprintln(os.Stderr, "usage: drive -a URL -b URL -key KEY")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := drive(ctx, *a, *b, *key); err != nil {
		fmt.Fprintln(os.Stderr, "drive:", err)
		os.Exit(1)
	}
}

type bearer string

func (k bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(k))
	return http.DefaultTransport.RoundTrip(r)
}

// clients connects to one replica over both transports.
func clients(ctx context.Context, base string, hc *http.Client) (map[string]*buyer.Client, func(), error) {
	session, err := mcpclient.ConnectHTTP(ctx, base+"/mcp", hc, mcpclient.ConnectOptions{})
	if err != nil {
		return nil, nil, err
	}
	conn, err := a2aclient.Dial(ctx, base, hc)
	if err != nil {
		session.Close()
		return nil, nil, err
	}
	closeAll := func() { session.Close(); conn.Close() }
	out := map[string]*buyer.Client{}
	for name, t := range map[string]buyer.Transport{"mcp": session, "a2a": conn} {
		c, err := buyer.New(adcp.Spec(), t, buyer.WithPolling(buyer.Polling{Interval: 50 * time.Millisecond, MaxInterval: time.Second}))
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		out[name] = c
	}
	return out, closeAll, nil
}

func drive(ctx context.Context, baseA, baseB, key string) error {
	hc := &http.Client{Transport: bearer(key)}
	ca, closeA, err := clients(ctx, baseA, hc)
	if err != nil {
		return fmt.Errorf("replica a: %w", err)
	}
	defer closeA()
	cb, closeB, err := clients(ctx, baseB, hc)
	if err != nil {
		return fmt.Errorf("replica b: %w", err)
	}
	defer closeB()
	for _, transport := range []string{"mcp", "a2a"} {
		if err := round(ctx, transport, ca[transport], cb[transport]); err != nil {
			return fmt.Errorf("%s: %w", transport, err)
		}
	}
	fmt.Println("drive: ok")
	return nil
}

// buyRequest is buyJSON with po_number po and a fresh idempotency key.
func buyRequest(po string) (*adcp.CreateMediaBuyRequest, json.RawMessage, error) {
	raw, _ := wire.Lenient(buyJSON).WithMember("po_number", wire.AppendQuoted(nil, po))
	raw, _ = wire.Lenient(raw).WithMember("idempotency_key", wire.AppendQuoted(nil, "drive-"+rand.Text()))
	var req adcp.CreateMediaBuyRequest
	return &req, raw, wire.Unmarshal(raw, &req)
}

func round(ctx context.Context, transport string, a, b *buyer.Client) error {
	say := func(format string, args ...any) { fmt.Printf(transport+": "+format+"\n", args...) }

	products, err := buyer.Call(ctx, a, adcp.Tools.GetProducts, &adcp.GetProductsRequest{BuyingMode: "brief", Brief: new("coffee")})
	if err != nil {
		return fmt.Errorf("get_products: %w", err)
	}
	if products.Status != task.Completed || len(products.Response.Products) == 0 {
		return fmt.Errorf("get_products: %s with %d products", products.Status, len(products.Response.Products))
	}
	say("get_products on a: %s, %d product(s)", products.Status, len(products.Response.Products))

	req, _, err := buyRequest("PO-" + transport)
	if err != nil {
		return err
	}
	sync, err := buyer.Call(ctx, b, adcp.Tools.CreateMediaBuy, req)
	if err != nil {
		return fmt.Errorf("create_media_buy: %w", err)
	}
	if sync.Status != task.Completed || sync.Response.Success == nil {
		return fmt.Errorf("create_media_buy: %s, %s", sync.Status, untrusted.SanitizeTruncate(sync.Message, 256))
	}
	say("create_media_buy on b: %s, media buy %s", sync.Status, untrusted.Sanitize(sync.Response.Success.MediaBuyID))

	_, raw, err := buyRequest("async-" + transport)
	if err != nil {
		return err
	}
	sub, err := a.Invoke(ctx, "create_media_buy", raw)
	if err != nil {
		return fmt.Errorf("async create_media_buy: %w", err)
	}
	if sub.Status != task.Submitted || sub.TaskID == "" || !wire.Lenient(sub.Data).Get("task_id").StringIs(sub.TaskID) {
		return fmt.Errorf("async create_media_buy: %s, task %q, payload %s", sub.Status, sub.TaskID, sub.Data)
	}
	say("create_media_buy on a: %s, task %s, message %q", sub.Status, untrusted.Sanitize(sub.TaskID), untrusted.Sanitize(sub.Message))

	replay, err := b.Invoke(ctx, "create_media_buy", raw)
	if err != nil {
		return fmt.Errorf("replayed create_media_buy: %w", err)
	}
	if !wire.Lenient(replay.Data).Get("replayed").Truthy() || replay.TaskID != sub.TaskID || replay.Message != sub.Message {
		return fmt.Errorf("replayed create_media_buy: task %q message %q payload %s", replay.TaskID, replay.Message, replay.Data)
	}
	say("create_media_buy replayed on b: task %s, message %q", untrusted.Sanitize(replay.TaskID), untrusted.Sanitize(replay.Message))

	done, err := buyer.Wait(ctx, b, adcp.Tools.CreateMediaBuy, sub.TaskID)
	if err != nil {
		return fmt.Errorf("waiting on b: %w", err)
	}
	if done.Status != task.Completed || done.Response == nil || done.Response.Success == nil {
		return fmt.Errorf("waiting on b: %s", done.Status)
	}
	if !strings.HasSuffix(done.Message, "on replica b.") {
		return errors.New("waiting on b: the task was not finished by replica b: " + untrusted.Sanitize(done.Message))
	}
	say("task %s on b: %s, media buy %s, %q", untrusted.Sanitize(sub.TaskID), done.Status, untrusted.Sanitize(done.Response.Success.MediaBuyID), untrusted.Sanitize(done.Message))
	return nil
}
