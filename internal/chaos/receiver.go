package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// receiver is the buyers' webhook endpoint on a loopback port it keeps
// while it is taken down and brought back. It records the task status of
// every notification, by task id.
type receiver struct {
	mu    sync.Mutex
	addr  string
	srv   *http.Server
	got   map[string]map[string]int // task id → status → deliveries
	posts int
}

func newReceiver() (*receiver, error) {
	rc := &receiver{got: map[string]map[string]int{}}
	if err := rc.up(context.Background()); err != nil {
		return nil, err
	}
	return rc, nil
}

// url is where the buyer of key asks for notifications.
func (rc *receiver) url(key string) string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return "http://" + rc.addr + "/hook/" + key
}

// up listens again (on the first address, once it is free).
func (rc *receiver) up(ctx context.Context) error {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	addr := rc.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var ln net.Listener
	var err error
	for range 40 {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		sleep(ctx, 250*time.Millisecond)
	}
	if err != nil {
		return err
	}
	rc.addr = ln.Addr().String()
	rc.srv = &http.Server{Handler: http.HandlerFunc(rc.serve), ReadHeaderTimeout: 10 * time.Second}
	go rc.srv.Serve(ln)
	return nil
}

// down stops listening and drops every connection: senders get
// connection refused until up.
func (rc *receiver) down() {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.srv != nil {
		_ = rc.srv.Close()
		rc.srv = nil
	}
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || r.Method != http.MethodPost {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	v, err := wire.ParseLenient(body)
	id, _ := v.Get("task_id").AsString()
	status, _ := v.Get("status").AsString()
	if err != nil || id == "" {
		http.Error(w, "not a task notification", http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	rc.posts++
	if rc.got[id] == nil {
		rc.got[id] = map[string]int{}
	}
	rc.got[id][status]++
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// heard reports whether a notification of task in status arrived.
func (rc *receiver) heard(task, status string) bool {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.got[task][status] > 0
}

func (rc *receiver) deliveries() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.posts
}
