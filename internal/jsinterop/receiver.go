package jsinterop

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// WebhookPost is what the JavaScript webhook receiver made of one post.
type WebhookPost struct {
	OK             bool   `json:"ok"`
	KeyID          string `json:"keyid"`
	Code           string `json:"code"`
	Error          string `json:"error"`
	Path           string `json:"path"`
	IdempotencyKey string `json:"idempotency_key"`
}

// WebhookReceiver is a running webhookreceiver.mjs: a buyer's webhook
// endpoint verifying RFC 9421 webhooks with the SDK's
// verifyWebhookSignature.
type WebhookReceiver struct {
	// URL is http://127.0.0.1:PORT; any path is accepted.
	URL string

	posts chan WebhookPost
	cmd   *exec.Cmd
	stdin io.Closer
	log   *syncBuffer
	done  chan struct{}
}

// StartWebhookReceiver starts a JavaScript webhook receiver trusting jwks
// (the seller's public keys) for a test and stops it when the test ends.
// It skips the test without node (see Require).
func StartWebhookReceiver(t testing.TB, jwks json.RawMessage) *WebhookReceiver {
	t.Helper()
	env := Require(t)
	arg, _ := json.Marshal(map[string]json.RawMessage{"jwks": jwks})
	cmd := exec.Command(env.Node, "webhookreceiver.mjs", string(arg))
	cmd.Dir = env.Dir
	r := &WebhookReceiver{posts: make(chan WebhookPost, 64), cmd: cmd, log: &syncBuffer{}, done: make(chan struct{})}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r.stdin = stdin
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = r.log
	if err := cmd.Start(); err != nil {
		t.Fatalf("jsinterop: starting webhookreceiver.mjs: %v", err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "adcp-webhook-receiver-ready "); ok {
				ready <- rest
				continue
			}
			if rest, ok := strings.CutPrefix(line, "adcp-webhook "); ok {
				var p WebhookPost
				if err := json.Unmarshal([]byte(rest), &p); err == nil {
					r.posts <- p
					continue
				}
			}
			r.log.Write([]byte(line + "\n"))
		}
		cmd.Wait()
		close(r.done)
	}()
	t.Cleanup(func() {
		r.stdin.Close()
		select {
		case <-r.done:
		case <-time.After(5 * time.Second):
			r.cmd.Process.Kill()
			<-r.done
		}
		if t.Failed() {
			t.Logf("webhookreceiver.mjs output:\n%s", r.log.String())
		}
	})
	select {
	case line := <-ready:
		var u struct{ URL string }
		if err := json.Unmarshal([]byte(line), &u); err != nil || u.URL == "" {
			t.Fatalf("jsinterop: webhookreceiver.mjs printed a bad ready line %q", line)
		}
		r.URL = u.URL
	case <-r.done:
		t.Fatalf("jsinterop: webhookreceiver.mjs exited before listening:\n%s", r.log.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("jsinterop: webhookreceiver.mjs did not listen:\n%s", r.log.String())
	}
	return r
}

// Next waits for the receiver's verdict on the next post.
func (r *WebhookReceiver) Next(ctx context.Context) (WebhookPost, error) {
	select {
	case p := <-r.posts:
		return p, nil
	case <-ctx.Done():
		return WebhookPost{}, fmt.Errorf("jsinterop: no webhook reached the receiver: %w", ctx.Err())
	}
}
