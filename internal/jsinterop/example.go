package jsinterop

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ErrNoExampleSeller says the repository has no examples/seller.
var ErrNoExampleSeller = errors.New("examples/seller does not exist")

// ExampleSeller is a running examples/seller, the Go seller the
// JavaScript SDK's buyer and compliance runner are pointed at.
type ExampleSeller struct {
	// BaseURL is http://ADDR: MCP at /mcp, A2A at /a2a, the agent card at
	// /.well-known/agent-card.json.
	BaseURL string
	APIKey  string
	stop    func()
}

// Close stops the seller.
func (s *ExampleSeller) Close() { s.stop() }

// ExampleSellerBuild is examples/seller built once, to start as often as
// needed (a fresh seller has no idempotency records or tasks).
type ExampleSellerBuild struct {
	dir, bin string
}

// BuildExampleSeller builds root/examples/seller. A module of its own first
// generates its bindings (go generate, from the published bundles in
// specDir), as examples/buyer/run.sh does. Remove deletes the build.
func BuildExampleSeller(ctx context.Context, root, specDir string) (*ExampleSellerBuild, error) {
	src := filepath.Join(root, "examples", "seller")
	if _, err := os.Stat(src); err != nil {
		return nil, fmt.Errorf("%w in %s", ErrNoExampleSeller, root)
	}
	dir, err := os.MkdirTemp("", "adcpgen-example-seller-")
	if err != nil {
		return nil, err
	}
	b := &ExampleSellerBuild{dir: dir, bin: filepath.Join(dir, "seller")}
	var steps [][]string
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err == nil {
		steps = [][]string{{"go", "generate", "./..."}, {"go", "build", "-o", b.bin, "."}}
	} else {
		src = root
		steps = [][]string{{"go", "build", "-o", b.bin, "./examples/seller"}}
	}
	for _, step := range steps {
		cmd := exec.CommandContext(ctx, step[0], step[1:]...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "ADCP_MIRROR="+specDir, "ADCP_SPEC_DIR="+specDir, "ADCP_CACHE="+filepath.Join(dir, "cache"))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Remove()
			return nil, fmt.Errorf("examples/seller: %s: %w\n%s", strings.Join(step, " "), err, out)
		}
	}
	return b, nil
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Log is a buffer for a seller's output that a test may read while the
// seller still writes to it.
type Log struct {
	mu  sync.Mutex
	buf []byte
}

// Write appends p.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	return len(p), nil
}

// String is what was written so far.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}

// Remove deletes the build.
func (b *ExampleSellerBuild) Remove() { os.RemoveAll(b.dir) }

// Start runs the seller with -addr 127.0.0.1:0, -api-key key,
// -webhook-loopback only (storyboards name public webhook hosts; tests talk
// to loopback only) and flags; it prints `listening http://ADDR` and
// `api-key KEY` first. Its later output goes to log.
func (b *ExampleSellerBuild) Start(ctx context.Context, key string, log io.Writer, flags ...string) (*ExampleSeller, error) {
	cmd := exec.Command(b.bin, append([]string{"-addr", "127.0.0.1:0", "-api-key", key, "-webhook-loopback", "only"}, flags...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	// The seller's stderr and the rest of its stdout are copied into log by
	// two goroutines: one lock serializes them.
	log = &lockedWriter{w: log}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}
	// The seller prints its address, its API key and its OAuth client, in
	// that order; the OAuth line is read and not passed on to log.
	lines := make(chan string, 3)
	go func() {
		sc := bufio.NewScanner(stdout)
		for i := 0; i < 3 && sc.Scan(); i++ {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(log, stdout)
	}()
	s := &ExampleSeller{stop: stop}
	timeout := time.After(60 * time.Second)
	for s.BaseURL == "" || s.APIKey == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				stop()
				return nil, errors.New("examples/seller stopped before printing `listening http://ADDR` and `api-key KEY`")
			}
			if rest, ok := strings.CutPrefix(line, "listening "); ok {
				s.BaseURL = strings.TrimRight(rest, "/")
			} else if rest, ok := strings.CutPrefix(line, "api-key "); ok {
				s.APIKey = rest
			} else if strings.HasPrefix(line, "oauth-client ") {
				continue
			} else {
				stop()
				return nil, fmt.Errorf("examples/seller printed %q; want `listening http://ADDR` then `api-key KEY`", line)
			}
		case <-timeout:
			stop()
			return nil, errors.New("examples/seller did not print its address within 60 s")
		case <-ctx.Done():
			stop()
			return nil, ctx.Err()
		}
	}
	return s, nil
}
