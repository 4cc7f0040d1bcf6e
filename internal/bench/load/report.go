//go:build adcpgen_bench

package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"time"
)

func f0(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
func f2(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// report prints the server cells and the buyer cells, with ratios.
func report(w io.Writer, cfg config, cells []cell, results map[string][]sample) {
	fmt.Fprintf(w, "\nServers: medians of %d rounds of %s per cell; the measured server's own CPU and allocations per call.\n", cfg.rounds, cfg.duration)
	fmt.Fprintln(w, "adcpgen: runtime/seller + mcpserver/a2aserver (stateless, JSON responses); bare: go-sdk / a2a-go sending the same bytes.")
	header := []string{"transport size clients", "server", "calls/s", "range", "p50 ms", "p99 ms", "CPU ms/call", "allocs/call", "KB alloc/call", "KB wire", "client CPU ms/call", "calls/s vs bare"}
	var rows [][]string
	for _, c := range cells {
		if c.buyer != "" {
			continue
		}
		s := summarize(results[c.key()])
		vs := ""
		if c.server == serverOurs {
			bare := c
			bare.server = serverBare
			vs = compare(results[c.key()], results[bare.key()]).String()
		}
		rows = append(rows, []string{fmt.Sprintf("%s %s %d", c.transport, c.size, c.clients), c.server,
			f0(s.perSecond), f0(s.minPerSecond) + "-" + f0(s.maxPerSecond), f1(s.p50), f1(s.p99),
			f2(s.cpu), f0(s.allocs), f0(s.kb), f1(s.wireKB), f2(s.clientCPU), vs})
	}
	table(w, header, rows)
	rows = nil
	for _, c := range cells {
		if c.buyer == "" {
			continue
		}
		s := summarize(results[c.key()])
		vs := ""
		if c.buyer == buyerTyped {
			sdk := c
			sdk.buyer = buyerSDK
			o := summarize(results[sdk.key()])
			if s.cpu > 0 {
				vs = f2(o.cpu/s.cpu) + "x less CPU, " + f2(o.allocs/max(s.allocs, 1)) + "x fewer allocs"
			}
		}
		name := c.buyer
		if c.buyer == buyerSDK {
			name = map[string]string{"mcp": "go-sdk CallTool", "a2a": "a2a-go SendMessage"}[c.transport]
		} else {
			name = "adcpgen buyer.Call"
		}
		rows = append(rows, []string{fmt.Sprintf("%s %s %d", c.transport, c.size, c.clients), name,
			f0(s.perSecond), f0(s.minPerSecond) + "-" + f0(s.maxPerSecond), f1(s.p50), f1(s.p99),
			f2(s.cpu), f0(s.allocs), f0(s.kb), vs})
	}
	if len(rows) > 0 {
		fmt.Fprintln(w, "\nBuyers: against adcpgen's server; the client process's own CPU and allocations per call.")
		table(w, []string{"transport size clients", "client", "calls/s", "range", "p50 ms", "p99 ms", "CPU ms/call", "allocs/call", "KB alloc/call", "typed vs SDK"}, rows)
	}
}

// targets prints issue 32's targets and reports whether all were met:
// adcpgen's 36 KB answer at 5x bare go-sdk's calls/s over MCP and 3x bare
// a2a-go's over A2A, its 1.6 KB answer at no less than go-sdk's.
func targets(w io.Writer, cfg config, results map[string][]sample) bool {
	ok := true
	fmt.Fprintln(w)
	for _, t := range []struct {
		transport, size string
		min             float64
	}{{"mcp", "36KB", 5}, {"a2a", "36KB", 3}, {"mcp", "1.6KB", 1}} {
		for _, n := range cfg.clients {
			ours := cell{transport: t.transport, size: t.size, clients: n, server: serverOurs}
			bare := ours
			bare.server = serverBare
			a, b := results[ours.key()], results[bare.key()]
			if len(a) == 0 || len(b) == 0 {
				continue
			}
			r := compare(a, b)
			mark := "ok"
			if r.median < t.min {
				mark, ok = "MISSED", false
			}
			fmt.Fprintf(w, "target: %s %s, %d clients: adcpgen/bare calls/s %s >= %v %s\n", t.transport, t.size, n, r, t.min, mark)
		}
	}
	return ok
}

// profile writes CPU profiles of the 36 KB cells with 32 clients (each
// server's, from its process; each buyer's, from this one) and prints
// their tops.
func profile(ctx context.Context, cfg config, servers map[string]*child, wires map[string]int) error {
	if err := os.MkdirAll(cfg.profileDir, 0o755); err != nil {
		return err
	}
	var files []string
	for _, tr := range cfg.transports {
		for _, c := range []cell{
			{transport: tr, size: "36KB", clients: 32, server: serverOurs},
			{transport: tr, size: "36KB", clients: 32, server: serverBare},
			{transport: tr, size: "36KB", clients: 32, server: serverOurs, buyer: buyerTyped},
			{transport: tr, size: "36KB", clients: 32, server: serverOurs, buyer: buyerSDK},
		} {
			if c.buyer != "" && !cfg.buyers {
				continue
			}
			name := c.server + "-" + tr + "-36KB.pprof"
			if c.buyer != "" {
				name = "buyer-" + c.buyer + "-" + tr + "-36KB.pprof"
			}
			file := filepath.Join(cfg.profileDir, name)
			out, err := os.Create(file)
			if err != nil {
				return err
			}
			secs := max(1, int(cfg.duration/time.Second))
			errc := make(chan error, 1)
			if c.buyer != "" {
				if err := pprof.StartCPUProfile(out); err != nil {
					return err
				}
				errc <- nil
			} else {
				go func() {
					resp, err := http.Get(fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", servers[c.server].base, secs))
					if err == nil {
						_, err = io.Copy(out, resp.Body)
						resp.Body.Close()
					}
					errc <- err
				}()
			}
			_, err = measure(ctx, cfg, servers[c.server], c, wires, time.Duration(secs)*time.Second+500*time.Millisecond)
			if c.buyer != "" {
				pprof.StopCPUProfile()
			}
			if perr := <-errc; err == nil {
				err = perr
			}
			out.Close()
			if err != nil {
				return fmt.Errorf("profiling %s: %w", c.key(), err)
			}
			files = append(files, file)
		}
	}
	for _, f := range files {
		fmt.Printf("\n%s (go tool pprof -top):\n", f)
		cmd := exec.Command("go", "tool", "pprof", "-top", "-nodecount=25", f)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		_ = cmd.Run()
	}
	return nil
}
