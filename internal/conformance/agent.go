package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
)

// agent is the seller under test: MCP at BaseURL/mcp, A2A at BaseURL/a2a
// (with its agent card under /a2a too, where the runner looks for it).
type agent struct {
	BaseURL string
	APIKey  string
	Name    string
	stop    func()
}

func (a *agent) url(protocol string) string { return a.BaseURL + "/" + protocol }

// startAgent returns the agent cfg names: a running one (cfg.agentURL), the
// JavaScript SDK's seller (cfg.seller "js"), or examples/seller, built and
// started on a free loopback port (cfg.seller "go").
func startAgent(ctx context.Context, cfg *config, env *jsinterop.Env) (*agent, error) {
	if cfg.agentURL != "" {
		return &agent{BaseURL: strings.TrimRight(cfg.agentURL, "/"), APIKey: cfg.auth, Name: cfg.agentURL, stop: func() {}}, nil
	}
	key := cfg.auth
	if key == "" {
		key = randomKey()
	}
	switch cfg.seller {
	case "js":
		s, err := jsinterop.StartSellerProcess(ctx, env, jsinterop.SellerOptions{
			APIKey:                key,
			CardCapabilitiesSkill: cfg.jsCapabilitiesSkill,
		})
		if err != nil {
			return nil, err
		}
		name := "the JavaScript SDK's seller (internal/jsinterop/seller.mjs)"
		if cfg.jsCapabilitiesSkill {
			name += " with get_adcp_capabilities in its card"
		}
		return &agent{BaseURL: s.BaseURL, APIKey: key, Name: name, stop: func() { s.Close() }}, nil
	case "go":
		return startExample(ctx, cfg.root, key)
	}
	return nil, fmt.Errorf("-seller %q: want go or js", cfg.seller)
}

// startExample builds examples/seller and runs it with -addr 127.0.0.1:0
// and -api-key key; it prints `listening http://ADDR` and `api-key KEY`
// first. It is built rather than `go run` so that stopping it stops the
// seller itself. A module of its own first generates its bindings (go
// generate, from the published bundles in $ADCP_SPEC_DIR, else
// ../shared/adcp), as examples/buyer/run.sh does.
func startExample(ctx context.Context, root, key string) (*agent, error) {
	src := filepath.Join(root, "examples", "seller")
	if _, err := os.Stat(src); err != nil {
		return nil, fmt.Errorf("examples/seller does not exist yet: use -seller js, or -agent URL (CONFORMANCE_AGENT) for a running seller")
	}
	dir, err := os.MkdirTemp("", "adcpgen-conformance-")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "seller")
	var steps [][]string
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err == nil {
		steps = [][]string{{"go", "generate", "./..."}, {"go", "build", "-o", bin, "."}}
	} else {
		src = root
		steps = [][]string{{"go", "build", "-o", bin, "./examples/seller"}}
	}
	mirror := os.Getenv("ADCP_SPEC_DIR")
	if mirror == "" {
		mirror = filepath.Join(root, "..", "shared", "adcp")
	}
	for _, step := range steps {
		cmd := exec.CommandContext(ctx, step[0], step[1:]...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "ADCP_MIRROR="+mirror, "ADCP_CACHE="+filepath.Join(dir, "cache"))
		if out, err := cmd.CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("examples/seller: %s: %w\n%s", strings.Join(step, " "), err, out)
		}
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-api-key", key)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
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
		os.RemoveAll(dir)
	}
	lines := make(chan string, 2)
	go func() {
		sc := bufio.NewScanner(stdout)
		for i := 0; i < 2 && sc.Scan(); i++ {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(os.Stderr, stdout) // the seller's later output goes with the runner's
	}()
	a := &agent{Name: "examples/seller", stop: stop}
	timeout := time.After(60 * time.Second)
	for a.BaseURL == "" || a.APIKey == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				stop()
				return nil, fmt.Errorf("examples/seller stopped before printing `listening http://ADDR` and `api-key KEY`")
			}
			if rest, ok := strings.CutPrefix(line, "listening "); ok {
				a.BaseURL = strings.TrimRight(rest, "/")
			} else if rest, ok := strings.CutPrefix(line, "api-key "); ok {
				a.APIKey = rest
			} else {
				stop()
				return nil, fmt.Errorf("examples/seller printed %q; want `listening http://ADDR` then `api-key KEY`", line)
			}
		case <-timeout:
			stop()
			return nil, fmt.Errorf("examples/seller did not print its address within 60 s")
		case <-ctx.Done():
			stop()
			return nil, ctx.Err()
		}
	}
	return a, nil
}

func randomKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return "sk_conformance_" + hex.EncodeToString(b)
}
