//go:build adcpgen_bench

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// config is the command line.
type config struct {
	specDir    string
	duration   time.Duration
	warmup     time.Duration
	rounds     int
	clients    []int
	buyerConc  int
	sizes      []string
	transports []string
	buyers     bool
	profileDir string
	only       string
}

func run(argv []string) error {
	if kind := os.Getenv(childEnv); kind != "" {
		return serveChild(kind, os.Getenv(specEnv))
	}
	var cfg config
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.StringVar(&cfg.specDir, "spec", "../../../shared/adcp", "the published AdCP material (its ../bench holds the fixture)")
	fs.DurationVar(&cfg.duration, "duration", 2*time.Second, "how long each cell runs in each round")
	fs.DurationVar(&cfg.warmup, "warmup", 300*time.Millisecond, "load before each cell, not measured")
	fs.IntVar(&cfg.rounds, "rounds", 3, "rounds: every cell runs once in each, comparisons side by side")
	clients := fs.String("clients", "32,128", "concurrent clients of the server cells")
	fs.IntVar(&cfg.buyerConc, "buyer-clients", 32, "concurrent calls of the buyer cells")
	sizes := fs.String("sizes", strings.Join(sizes, ","), "answer sizes")
	transports := fs.String("transports", "mcp,a2a", "transports")
	fs.BoolVar(&cfg.buyers, "buyers", true, "also measure the buyers' clients")
	fs.StringVar(&cfg.profileDir, "profile", "", "after the rounds, write CPU profiles of the 36KB cells (32 clients) to this directory")
	if err := fs.Parse(argv); err != nil {
		return err
	}
	for f := range strings.SplitSeq(*clients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("-clients: %q is not a count", f)
		}
		cfg.clients = append(cfg.clients, n)
	}
	cfg.sizes = strings.Split(*sizes, ",")
	cfg.transports = strings.Split(*transports, ",")
	abs, err := filepath.Abs(cfg.specDir)
	if err != nil {
		return err
	}
	cfg.specDir = abs
	return drive(cfg)
}

// child is a server process.
type child struct {
	name  string
	base  string
	cmd   *exec.Cmd
	stdin io.Closer
}

func startChild(name, specDir string) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childEnv+"="+name, specEnv+"="+specDir)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = in.Close()
		_ = cmd.Wait()
		return nil, fmt.Errorf("server %s did not start: %w", name, err)
	}
	return &child{name: name, base: strings.TrimSpace(line), cmd: cmd, stdin: in}, nil
}

func (c *child) stop() {
	_ = c.stdin.Close()
	_ = c.cmd.Wait()
}

func (c *child) usage() (usage, error) {
	resp, err := http.Get(c.base + "/debug/load-stats")
	if err != nil {
		return usage{}, err
	}
	defer resp.Body.Close()
	var u usage
	return u, json.NewDecoder(resp.Body).Decode(&u)
}

// cell is one measurement: a server answering raw calls, or a buyer's
// client calling adcpgen's server.
type cell struct {
	transport, size string
	clients         int
	server          string // serverOurs or serverBare
	buyer           string // buyerTyped or buyerSDK, for a buyer cell
}

func (c cell) key() string {
	if c.buyer != "" {
		return fmt.Sprintf("buyer %s %s %s %d", c.transport, c.size, c.buyer, c.clients)
	}
	return fmt.Sprintf("server %s %s %d %s", c.transport, c.size, c.clients, c.server)
}

func drive(cfg config) error {
	servers := map[string]*child{}
	defer func() {
		for _, c := range servers {
			c.stop()
		}
	}()
	for _, name := range []string{serverOurs, serverBare} {
		c, err := startChild(name, cfg.specDir)
		if err != nil {
			return err
		}
		servers[name] = c
	}
	var cells []cell
	for _, tr := range cfg.transports {
		for _, size := range cfg.sizes {
			for _, n := range cfg.clients {
				cells = append(cells, cell{transport: tr, size: size, clients: n, server: serverOurs},
					cell{transport: tr, size: size, clients: n, server: serverBare})
			}
		}
	}
	if cfg.buyers {
		for _, tr := range cfg.transports {
			for _, size := range cfg.sizes {
				cells = append(cells, cell{transport: tr, size: size, clients: cfg.buyerConc, server: serverOurs, buyer: buyerTyped},
					cell{transport: tr, size: size, clients: cfg.buyerConc, server: serverOurs, buyer: buyerSDK})
			}
		}
	}
	ctx := context.Background()
	wires, err := probe(ctx, cfg, servers)
	if err != nil {
		return err
	}
	results := map[string][]sample{}
	started := time.Now()
	for round := range cfg.rounds {
		order := slices.Clone(cells)
		if round%2 == 1 { // each of a pair runs first in every other round
			for i := 0; i+1 < len(order); i += 2 {
				order[i], order[i+1] = order[i+1], order[i]
			}
		}
		for _, c := range order {
			s, err := measure(ctx, cfg, servers[c.server], c, wires, cfg.duration)
			if err != nil {
				return fmt.Errorf("round %d, %s: %w", round+1, c.key(), err)
			}
			results[c.key()] = append(results[c.key()], s)
		}
		fmt.Fprintf(os.Stderr, "load: round %d of %d done (%s)\n", round+1, cfg.rounds, time.Since(started).Round(time.Second))
	}
	report(os.Stdout, cfg, cells, results)
	if cfg.profileDir != "" {
		if err := profile(ctx, cfg, servers, wires); err != nil {
			return err
		}
	}
	if !targets(os.Stdout, cfg, results) {
		os.Exit(1)
	}
	return nil
}

// measure runs one cell after its warmup and returns what it measured.
func measure(ctx context.Context, cfg config, srv *child, c cell, wires map[string]int, d time.Duration) (sample, error) {
	call, done, err := caller(ctx, srv, c, wires)
	if err != nil {
		return sample{}, err
	}
	defer done()
	if _, err := load(c.clients, cfg.warmup, call); err != nil {
		return sample{}, err
	}
	before, err := side(srv, c)
	if err != nil {
		return sample{}, err
	}
	mine := readUsage()
	s, err := load(c.clients, d, call)
	if err != nil {
		return sample{}, err
	}
	s.clientCPU = readUsage().minus(mine).CPU
	after, err := side(srv, c)
	if err != nil {
		return sample{}, err
	}
	u := after.minus(before)
	s.cpu, s.allocs, s.bytes = u.CPU, u.Allocs, u.Bytes
	s.wire = wires[wireKey(c.transport, c.size, c.server)]
	return s, nil
}

// side reads the usage of what a cell measures: the server's process, or
// this one for a buyer.
func side(srv *child, c cell) (usage, error) {
	if c.buyer != "" {
		return readUsage(), nil
	}
	return srv.usage()
}

// load runs clients goroutines calling call until d has passed, and
// returns the calls made (each one started before d passed) and their
// latencies; elapsed runs until the last call has returned.
func load(clients int, d time.Duration, call func(buf *bytes.Buffer) error) (sample, error) {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		lat   []time.Duration
		first error
	)
	start := time.Now()
	deadline := start.Add(d)
	for range clients {
		wg.Go(func() {
			var mine []time.Duration
			var buf bytes.Buffer
			for time.Now().Before(deadline) {
				t0 := time.Now()
				if err := call(&buf); err != nil {
					mu.Lock()
					first = firstErr(first, err)
					mu.Unlock()
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(lat)
	return sample{calls: len(lat), elapsed: elapsed, lat: lat}, first
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func wireKey(transport, size, server string) string { return transport + " " + size + " " + server }

// probe calls every server once per transport and size, checks that the
// answer carries the products, and returns each answer's size on the wire;
// it says whether adcpgen's and go-sdk's MCP answers are the same bytes.
func probe(ctx context.Context, cfg config, servers map[string]*child) (map[string]int, error) {
	wires := map[string]int{}
	for _, tr := range cfg.transports {
		for _, size := range cfg.sizes {
			bodies := map[string][]byte{}
			for _, name := range []string{serverOurs, serverBare} {
				post := rawPost(servers[name], tr, size)
				var buf bytes.Buffer
				if err := post(&buf); err != nil {
					return nil, fmt.Errorf("%s %s %s: %w", name, tr, size, err)
				}
				if !bytes.Contains(buf.Bytes(), []byte(`"products"`)) {
					return nil, fmt.Errorf("%s %s %s: no products in the answer: %.300s", name, tr, size, buf.Bytes())
				}
				bodies[name] = bytes.Clone(buf.Bytes())
				wires[wireKey(tr, size, name)] = buf.Len()
			}
			same := "the same bytes"
			if !bytes.Equal(bodies[serverOurs], bodies[serverBare]) {
				same = fmt.Sprintf("%d and %d bytes", len(bodies[serverOurs]), len(bodies[serverBare]))
				if tr == "a2a" && len(bodies[serverOurs]) == len(bodies[serverBare]) {
					same = "the same size (task ids differ)"
				}
			}
			fmt.Fprintf(os.Stderr, "load: %s %s: adcpgen and bare answer with %s\n", tr, size, same)
		}
	}
	return wires, nil
}

// caller returns the call a cell's clients make, and what to do after.
func caller(ctx context.Context, srv *child, c cell, wires map[string]int) (func(*bytes.Buffer) error, func(), error) {
	if c.buyer != "" {
		return buyerCaller(ctx, srv, c)
	}
	post := rawPost(srv, c.transport, c.size)
	want := wires[wireKey(c.transport, c.size, c.server)]
	return func(buf *bytes.Buffer) error {
		if err := post(buf); err != nil {
			return err
		}
		if buf.Len() != want {
			return fmt.Errorf("an answer of %d bytes, not %d: %.300s", buf.Len(), want, buf.Bytes())
		}
		return nil
	}, func() {}, nil
}

var (
	transports     = map[int]*http.Transport{}
	transportsLock sync.Mutex
)

// httpClient is a keep-alive client with room for n connections.
func httpClient(n int) *http.Client {
	transportsLock.Lock()
	defer transportsLock.Unlock()
	tr := transports[n]
	if tr == nil {
		tr = &http.Transport{MaxIdleConns: 4 * n, MaxIdleConnsPerHost: n, DisableCompression: true}
		transports[n] = tr
	}
	return &http.Client{Transport: tr}
}

// rawPost posts the load's request, as a raw JSON-RPC body, and reads the
// whole answer into buf.
func rawPost(srv *child, transport, size string) func(*bytes.Buffer) error {
	url := srv.base + "/" + transport + "/" + size
	var body []byte
	hdr := http.Header{"Content-Type": {"application/json"}}
	switch transport {
	case "mcp":
		body = []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_products","arguments":` + args + `}}`)
		hdr.Set("Accept", "application/json, text/event-stream")
		hdr.Set("Mcp-Protocol-Version", "2025-06-18")
	default:
		body = []byte(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"data","data":{"skill":"get_products","input":` + args + `}}]}}}`)
	}
	hc := httpClient(256)
	return func(buf *bytes.Buffer) error {
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header = hdr.Clone()
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		buf.Reset()
		if _, err := buf.ReadFrom(resp.Body); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("HTTP %d: %.300s", resp.StatusCode, buf.Bytes())
		}
		return nil
	}
}
