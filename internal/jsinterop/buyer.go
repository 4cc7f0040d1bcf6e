package jsinterop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"
	"time"
)

// RunScript runs `node script args...` in the project directory and
// returns the last line it printed to stdout, which must be JSON (the
// scripts print one summary line and log to stderr).
func RunScript(ctx context.Context, env *Env, script string, args ...string) (json.RawMessage, []byte, error) {
	cmd := exec.CommandContext(ctx, env.Node, append([]string{script}, args...)...)
	cmd.Dir = env.Dir
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, stderr.Bytes(), fmt.Errorf("jsinterop: node %s: %w", script, err)
	}
	lines := bytes.Split(bytes.TrimSpace(stdout.Bytes()), []byte("\n"))
	last := lines[len(lines)-1]
	if !json.Valid(last) {
		return nil, stderr.Bytes(), fmt.Errorf("jsinterop: node %s: %w; stdout ended with %q", script, errNoSummary, last)
	}
	return last, stderr.Bytes(), nil
}

// RunBuyer runs a buyer script written with the SDK's client (buyer.mjs,
// or another script in this directory) for a test and returns the JSON
// summary it printed. The script gets 2 minutes, less if the test's
// deadline is nearer; its stderr is logged when it fails.
func RunBuyer(t testing.TB, script string, args ...string) json.RawMessage {
	t.Helper()
	env := Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok {
			var c2 context.CancelFunc
			ctx, c2 = context.WithDeadline(ctx, dl.Add(-5*time.Second))
			defer c2()
		}
	}
	out, stderr, err := RunScript(ctx, env, script, args...)
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr)
	}
	return out
}

// BuyerOptions drive buyer.mjs.
type BuyerOptions struct {
	// Agent is the seller's MCP endpoint, or for A2A the URL under which
	// the buyer looks for /.well-known/agent.json and agent-card.json.
	Agent    string `json:"agent"`
	Protocol string `json:"protocol"` // "mcp" or "a2a"
	Auth     string `json:"auth,omitempty"`
	// Steps, in order, among "capabilities", "get_products" and
	// "create_media_buy"; nil runs all three.
	Steps []string `json:"steps,omitempty"`
	// CreateMediaBuy replaces the default create_media_buy request, which
	// buys the first product get_products answered with po_number
	// "async-1" (seller.mjs and examples/seller answer it submitted).
	CreateMediaBuy json.RawMessage `json:"create_media_buy,omitempty"`
	// PollMS is waitForCompletion's polling interval (default 100).
	PollMS int `json:"poll_ms,omitempty"`
}

// BuyerSummary is what buyer.mjs reports.
type BuyerSummary struct {
	Steps []BuyerStep `json:"steps"`
	// Error is set when the SDK threw.
	Error string `json:"error"`
}

// BuyerStep is one call's TaskResult as the SDK's client returned it.
type BuyerStep struct {
	Step    string          `json:"step"`
	Success bool            `json:"success"`
	Status  string          `json:"status"`
	Data    json.RawMessage `json:"data"`
	Error   string          `json:"error"`
	// AdcpError is the SDK's reading of the seller's AdCP error.
	AdcpError json.RawMessage `json:"adcp_error"`
	// TaskID is result.submitted.taskId: the task the SDK polls.
	TaskID string `json:"task_id"`
	// Completed is waitForCompletion's result after a submitted answer.
	Completed *BuyerStep `json:"completed"`
}

// Find returns the step named name, or nil.
func (s *BuyerSummary) Find(name string) *BuyerStep {
	for i := range s.Steps {
		if s.Steps[i].Step == name {
			return &s.Steps[i]
		}
	}
	return nil
}

// Buy runs buyer.mjs with opts for a test.
func Buy(t testing.TB, opts BuyerOptions) *BuyerSummary {
	t.Helper()
	arg, err := json.Marshal(opts)
	if err != nil {
		t.Fatal(err)
	}
	out := RunBuyer(t, "buyer.mjs", string(arg))
	var s BuyerSummary
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("buyer.mjs summary: %v\n%s", err, out)
	}
	return &s
}
