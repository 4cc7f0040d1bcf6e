//go:build unix

package pgstore_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/retry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A replica process is this test binary run with replicaEnv set to the
// DSN: a seller on the database over MCP on loopback, which prints
// "listening URL" and then, when its work reaches the point the test kills
// it at, "holding ID", and hangs there (replicaModeEnv: "sync" hangs a
// create_media_buy after booking its buy, "work" hangs a task's background
// work after booking).
const (
	replicaEnv     = "PGSTORE_TEST_REPLICA_DSN"
	replicaModeEnv = "PGSTORE_TEST_REPLICA_MODE"
)

func init() {
	if dsn := os.Getenv(replicaEnv); dsn != "" {
		if err := runReplica(dsn, os.Getenv(replicaModeEnv)); err != nil {
			fmt.Fprintln(os.Stderr, "replica:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// runReplica is the replica process.
func runReplica(dsn, mode string) error {
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		return err
	}
	store := pgstore.New(pool, nil)
	hang := func(ctx context.Context, id string) {
		fmt.Printf("holding %s\n", id)
		select {} // until killed
	}
	var sender *webhook.Sender
	if mode == "webhooks" {
		sender = testSender()
		hang = nil
	}
	srv, _, err := webhookReplica(store, mode == "work", hang, sender)
	if err != nil {
		return err
	}
	h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("listening http://%s\n", ln.Addr())
	return http.Serve(ln, h)
}

// replicaProcess starts a replica process and returns its URL and its
// output's lines.
func replicaProcess(t *testing.T, dsn, mode string) (*exec.Cmd, string, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), replicaEnv+"="+dsn, replicaModeEnv+"="+mode)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	url := strings.TrimPrefix(waitLine(t, lines, "listening "), "listening ")
	return cmd, url, lines
}

func waitLine(t *testing.T, lines <-chan string, prefix string) string {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the replica exited before printing %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-timeout:
			t.Fatalf("the replica printed no %q within a minute", prefix)
		}
	}
}

func kill9(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
}

// A replica killed with SIGKILL in the middle of a create_media_buy, after
// its handler booked the buy in its unit of work and before the answer
// was recorded: the database rolls the unit back with the dead
// connection, the buyer's retry on another replica is told to come back
// when the dead claim's lease lapses (retry_after at most the lease, not
// minutes), then takes the key over: one buy for the key.
func TestKilledReplicaMidCall(t *testing.T) {
	cluster, stores, db := faultCluster(t, 1)
	cmd, url, lines := replicaProcess(t, cluster.DSN(), "sync")
	survivor, _, err := killableReplica(stores[0], false, nil)
	if err != nil {
		t.Fatal(err)
	}
	const key = "k-killed-mid-call-0123"
	args := `{"idempotency_key":"` + key + `","packages":[{"product_id":"ctv","budget":5000}]}`
	go func() { _, _ = mcpCall(url, "create_media_buy", args) }()
	waitLine(t, lines, "holding "+key)
	kill9(t, cmd)

	killedAt := time.Now()
	var answer *seller.Answer
	for {
		answer = survivor.Serve(context.Background(), "create_media_buy", &seller.Call{Arguments: json.RawMessage(args), Transport: seller.TransportMCP})
		if answer.Error == nil {
			break
		}
		if e := answer.Error; e.Recovery != "transient" || e.RetryAfter > killLease || time.Since(killedAt) > 30*time.Second {
			t.Fatalf("the retry after the kill: %+v (%v after it)", e, time.Since(killedAt))
		}
		time.Sleep(answer.Error.RetryAfter)
	}
	var n int
	if err := db.QueryRow(t.Context(), `SELECT count(*) FROM test_buys WHERE idempotency_key = $1`, key).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 || !bytes.Contains(answer.Body, []byte(`"media_buy_id":"mb_`)) {
		t.Fatalf("%d buys for the key; the answer %s", n, answer.Body)
	}
	t.Logf("taken over %v after the kill", time.Since(killedAt).Round(100*time.Millisecond))
}

// A replica killed with SIGKILL in the middle of a task's background work
// (Options.Work), after booking its buy: the task stays open only until
// the dead worker's lease lapses; then a surviving replica's Manager takes
// it over and finishes it, with one buy.
func TestKilledReplicaMidWork(t *testing.T) {
	cluster, stores, db := faultCluster(t, 1)
	cmd, url, lines := replicaProcess(t, cluster.DSN(), "work")
	const key = "k-killed-mid-work-0123"
	out, err := mcpCall(url, "create_media_buy", `{"idempotency_key":"`+key+`","po_number":"async","packages":[{"product_id":"ctv","budget":5000}]}`)
	if err != nil || !bytes.Contains(out, []byte(`submitted`)) {
		t.Fatalf("the async create: %s %v", out, err)
	}
	id := strings.TrimPrefix(waitLine(t, lines, "holding "), "holding ")
	kill9(t, cmd)
	killedAt := time.Now()

	_, tasks, err := killableReplica(stores[0], true, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tasks.Close(context.Background()) })
	for {
		snap, err := tasks.Get(context.Background(), "anonymous", id)
		if err == nil && snap.Status == task.Completed {
			break
		}
		if time.Since(killedAt) > 30*time.Second {
			t.Fatalf("task %s still %s (%v) 30 s after its replica was killed", id, snap.Status, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var n int
	if err := db.QueryRow(t.Context(), `SELECT count(*) FROM test_buys WHERE task_id = $1`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d buys for the task", n)
	}
	t.Logf("finished by another replica %v after the kill", time.Since(killedAt).Round(100*time.Millisecond))
}

// testSender posts to loopback receivers, retrying fast.
func testSender() *webhook.Sender {
	return webhook.NewSender(webhook.SenderOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true},
		Retry: retry.Policy{InitialBackoff: 100 * time.Millisecond, MaxBackoff: 500 * time.Millisecond}})
}

// The lost webhooks, with the sender killed: a replica whose
// receiver is down records ten notifications (each with its buy, in one
// transaction) and is killed with SIGKILL while retrying them; the
// receiver comes back, and another replica's dispatcher delivers every
// one, once each as the receiver sees them, each with the
// idempotency_key and body the dead replica made.
func TestKilledSenderLosesNothing(t *testing.T) {
	cluster, stores, db := faultCluster(t, 1)
	cmd, url, _ := replicaProcess(t, cluster.DSN(), "webhooks")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // the receiver is down
	hook := "http://" + addr + "/hooks/create_media_buy/op_1"
	for i := range 10 {
		args := fmt.Sprintf(`{"idempotency_key":"k-hook-%02d-0123456789","packages":[{"product_id":"ctv","budget":5000}],`+
			`"push_notification_config":{"url":"%s","authentication":{"schemes":["HMAC-SHA256"],"credentials":"%s"}}}`, i, hook, hookSecret)
		out, err := mcpCall(url, "create_media_buy", args)
		if err != nil || !bytes.Contains(out, []byte(`media_buy_id`)) {
			t.Fatalf("create %d: %s %v", i, out, err)
		}
	}
	// The dead replica made its attempts: every notification has failed
	// at least once when it is killed.
	waitFor(t, "the first attempts", func() bool {
		var n int
		_ = db.QueryRow(t.Context(), `SELECT count(*) FROM adcp_webhook_outbox WHERE attempts > 0`).Scan(&n)
		return n == 10
	})
	var bodies []string
	rows, err := db.Query(t.Context(), `SELECT body FROM adcp_webhook_outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var b []byte
		_ = rows.Scan(&b)
		bodies = append(bodies, string(b))
	}
	kill9(t, cmd)

	var mu sync.Mutex
	got := map[string][]string{} // idempotency_key -> bodies handled
	h, err := webhook.NewHMAC([]byte(hookSecret))
	if err != nil {
		t.Fatal(err)
	}
	rc := webhook.NewReceiver(adcpt.Spec(), webhook.ReceiverOptions{HMAC: h})
	rc.HandleOther(func(_ context.Context, n *webhook.Notification) error {
		mu.Lock()
		got[n.IdempotencyKey] = append(got[n.IdempotencyKey], string(n.Body))
		mu.Unlock()
		return nil
	})
	mux := http.NewServeMux()
	mux.Handle("POST /hooks/{task_type}/{operation_id}", rc)
	if ln, err = net.Listen("tcp", addr); err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // closed below
	t.Cleanup(func() { hs.Close() })
	back := time.Now()
	_, tasks, err := webhookReplica(stores[0], false, nil, testSender())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tasks.Close(context.Background()) })
	waitFor(t, "every notification delivered by the surviving replica", func() bool {
		var n int
		_ = db.QueryRow(t.Context(), `SELECT count(*) FROM adcp_webhook_outbox WHERE delivered`).Scan(&n)
		return n == 10
	})
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 10 {
		t.Fatalf("%d distinct notifications handled, want 10", len(got))
	}
	for key, bs := range got {
		if len(bs) != 1 || !slices.Contains(bodies, bs[0]) {
			t.Errorf("notification %s handled %d times, or with a body the dead replica did not make", key, len(bs))
		}
	}
	t.Logf("all 10 delivered %v after the receiver came back, the sender killed before", time.Since(back).Round(100*time.Millisecond))
}
