package jsinterop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// SellerOptions choose the canned behaviour of the JavaScript seller
// (seller.mjs). The zero value serves one product and answers every tool.
type SellerOptions struct {
	// APIKey, when set, is required as "Authorization: Bearer KEY" on MCP
	// and A2A (the agent card stays public).
	APIKey string
	// Products replaces the get_products answer's products array.
	Products json.RawMessage
	// Errors makes a tool throw an AdCP error instead of answering.
	Errors map[string]SellerError
	// AsyncDelay is how long a submitted create_media_buy (po_number
	// beginning with "async") stays submitted; 0 completes it before the
	// buyer's first poll.
	AsyncDelay time.Duration
	// CardCapabilitiesSkill lists get_adcp_capabilities among the agent
	// card's skills, which the SDK leaves out.
	CardCapabilitiesSkill bool
	// Trace logs every HTTP request's method and path to the seller's log.
	Trace bool
	// SignedRequests, when set, verifies RFC 9421 request signatures on
	// MCP with the SDK's verifier.
	SignedRequests *SellerSignedRequests
}

// SellerSignedRequests configures the JavaScript seller's request
// verification: the buyers' JWKS, the operations that need a signature
// from callers without another credential, and covers_content_digest
// ("" is "either").
type SellerSignedRequests struct {
	JWKS                json.RawMessage `json:"jwks"`
	RequiredFor         []string        `json:"required_for,omitempty"`
	CoversContentDigest string          `json:"covers_content_digest,omitempty"`
}

// SellerError is an AdCP error a tool throws (the SDK's AdcpError).
type SellerError struct {
	Code       string `json:"code"`
	Message    string `json:"message,omitempty"`
	Recovery   string `json:"recovery,omitempty"`
	Field      string `json:"field,omitempty"`
	RetryAfter int    `json:"retry_after,omitempty"` // seconds; 0 sends none
}

// MarshalJSON writes the options as seller.mjs reads them.
func (o SellerOptions) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		APIKey                string                 `json:"api_key,omitempty"`
		Products              json.RawMessage        `json:"products,omitempty"`
		Errors                map[string]SellerError `json:"errors,omitempty"`
		AsyncDelayMS          int64                  `json:"async_delay_ms,omitempty"`
		CardCapabilitiesSkill bool                   `json:"card_capabilities_skill,omitempty"`
		Trace                 bool                   `json:"trace,omitempty"`
		SignedRequests        *SellerSignedRequests  `json:"signed_requests,omitempty"`
	}{o.APIKey, o.Products, o.Errors, o.AsyncDelay.Milliseconds(), o.CardCapabilitiesSkill, o.Trace, o.SignedRequests})
}

// Seller is a running seller.mjs: an AdCP agent on the JavaScript SDK's
// seller framework, on one loopback port.
type Seller struct {
	// BaseURL is http://127.0.0.1:PORT; the agent card is at
	// BaseURL/.well-known/agent-card.json (and under /a2a).
	BaseURL string
	// MCPURL is the streamable HTTP MCP endpoint, BaseURL/mcp.
	MCPURL string
	// A2AURL is the A2A JSON-RPC endpoint, BaseURL/a2a.
	A2AURL string

	cmd   *exec.Cmd
	stdin io.Closer
	log   *syncBuffer
	done  chan struct{}
}

// readyPrefix starts the line seller.mjs prints once it listens.
const readyPrefix = "adcp-seller-ready "

// StartSellerProcess starts seller.mjs with opts and waits until it
// listens. Close stops it.
func StartSellerProcess(ctx context.Context, env *Env, opts SellerOptions) (*Seller, error) {
	arg, err := json.Marshal(opts)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(env.Node, "seller.mjs", string(arg))
	cmd.Dir = env.Dir
	s := &Seller{cmd: cmd, log: &syncBuffer{}, done: make(chan struct{})}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	s.stdin = stdin
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = s.log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("jsinterop: starting seller.mjs: %w", err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, readyPrefix); ok {
				select {
				case ready <- rest:
				default:
				}
				continue
			}
			s.log.Write([]byte(line + "\n"))
		}
		io.Copy(io.Discard, stdout)
		cmd.Wait()
		close(s.done)
	}()
	select {
	case line := <-ready:
		var urls struct{ Base, MCP, A2A string }
		if err := json.Unmarshal([]byte(line), &urls); err != nil || urls.Base == "" {
			s.Close()
			return nil, fmt.Errorf("jsinterop: seller.mjs printed a bad ready line %q", line)
		}
		s.BaseURL, s.MCPURL, s.A2AURL = urls.Base, urls.MCP, urls.A2A
		return s, nil
	case <-s.done:
		return nil, fmt.Errorf("jsinterop: seller.mjs exited before listening: %s\n%s", cmd.ProcessState, s.log)
	case <-ctx.Done():
		s.Close()
		return nil, fmt.Errorf("jsinterop: seller.mjs did not listen: %w\n%s", ctx.Err(), s.log)
	}
}

// Close stops the seller: it exits when its stdin closes, and is killed
// if it has not after 5 s.
func (s *Seller) Close() error {
	s.stdin.Close()
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
	return nil
}

// Log is what the seller wrote to stdout (after its ready line) and stderr.
func (s *Seller) Log() string { return s.log.String() }

// StartSeller starts a JavaScript seller for a test and stops it when the
// test ends, logging its output if the test failed. It skips the test
// without node (see Require).
func StartSeller(t testing.TB, opts SellerOptions) *Seller {
	t.Helper()
	env := Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := StartSellerProcess(ctx, env, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		if t.Failed() {
			t.Logf("seller.mjs output:\n%s", s.Log())
		}
	})
	return s
}

// syncBuffer is a bytes.Buffer safe for the writers of a process.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var errNoSummary = errors.New("no JSON summary line")
