package sellerhttp_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerhttp"
)

// bound is how long a test waits for what must happen, on a loaded
// machine; the limits under test are a small fraction of it.
const bound = 60 * time.Second

// serve serves hs on a loopback port until the test ends; it returns
// the address.
func serve(t *testing.T, hs *http.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// The defaults, and a zero Options takes them.
func TestNew(t *testing.T) {
	hs := sellerhttp.New("127.0.0.1:0", http.NotFoundHandler(), sellerhttp.Options{})
	if hs.ReadHeaderTimeout != sellerhttp.DefaultReadHeaderTimeout || hs.ReadTimeout != sellerhttp.DefaultReadTimeout || hs.IdleTimeout != sellerhttp.DefaultIdleTimeout ||
		hs.MaxHeaderBytes != sellerhttp.DefaultMaxHeaderBytes || hs.WriteTimeout != 0 || hs.Addr != "127.0.0.1:0" {
		t.Errorf("%+v", hs)
	}
	hs = sellerhttp.New("", http.NotFoundHandler(), sellerhttp.Options{ReadHeaderTimeout: time.Second, IdleTimeout: 3 * time.Second, MaxHeaderBytes: 100})
	if hs.ReadHeaderTimeout != time.Second || hs.IdleTimeout != 3*time.Second || hs.MaxHeaderBytes != 100 {
		t.Errorf("%+v", hs)
	}
}

// Clients that send their headers and then drip the body (here: one byte,
// then nothing) hold no connection past ReadTimeout: each gets the gate's
// HTTP 408 with a correctable INVALID_REQUEST and its connection is
// closed, while a buyer's calls are answered all along. (With only
// ReadHeaderTimeout, as examples/seller had, they held their connections
// for as long as they liked.)
func TestSlowBodies(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	h, err := mcpserver.NewStreamableHandler(s.Server, mcpserver.Options{Stateless: true, JSONResponse: true})
	if err != nil {
		t.Fatal(err)
	}
	addr := serve(t, sellerhttp.New("", h, sellerhttp.Options{ReadTimeout: time.Second}))
	const clients = 100
	conns := make([]net.Conn, clients)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: seller\r\nContent-Type: application/json\r\n"+
			"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
			t.Fatal(err)
		}
		conns[i] = c
	}
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_products","arguments":{"buying_mode":"brief"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("a buyer beside the slow clients: %v %v", resp, err)
	}
	resp.Body.Close()
	x := extract.New(adcpt.Spec())
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for _, c := range conns {
		wg.Go(func() {
			_ = c.SetReadDeadline(time.Now().Add(bound))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				errs <- err
				return
			}
			body, _ := io.ReadAll(resp.Body)
			if r := x.MCP(body); resp.StatusCode != http.StatusRequestTimeout || r.Error == nil || r.Error.Code != "INVALID_REQUEST" {
				errs <- errors.New(resp.Status + " " + string(body))
				return
			}
			// Then the server closes the connection.
			if _, err := c.Read(make([]byte, 1)); err != io.EOF {
				errs <- errors.New("the connection is still open: " + err.Error())
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A handler runs as long as it needs: its context stays alive past
// ReadTimeout once it has read its body, and its answer goes out after
// WriteTimeout has passed, which http.Server.WriteTimeout, counted from
// the request's start and left unset by New, would cut.
func TestSlowHandler(t *testing.T) {
	const limit = 200 * time.Millisecond
	handler := func(canceled chan<- bool) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.ReadAll(r.Body)
			select {
			case <-r.Context().Done():
				canceled <- true
			case <-time.After(5 * limit):
				canceled <- false
			}
			_, _ = io.WriteString(w, "done")
		})
	}
	for _, tc := range []struct {
		name     string
		server   func(http.Handler) *http.Server
		answered bool
	}{
		{"sellerhttp", func(h http.Handler) *http.Server {
			return sellerhttp.New("", h, sellerhttp.Options{ReadHeaderTimeout: limit, ReadTimeout: limit, WriteTimeout: limit})
		}, true},
		{"http.Server.WriteTimeout", func(h http.Handler) *http.Server { return &http.Server{Handler: h, WriteTimeout: limit} }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			canceled := make(chan bool, 1)
			addr := serve(t, tc.server(handler(canceled)))
			ctx, cancel := context.WithTimeout(t.Context(), bound)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/", strings.NewReader("{}"))
			resp, err := http.DefaultClient.Do(req)
			var body []byte
			if err == nil {
				body, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			if <-canceled {
				t.Error("the handler's context was canceled")
			}
			if answered := err == nil && string(body) == "done"; answered != tc.answered {
				t.Errorf("answered %v (%q, %v), want %v", answered, body, err, tc.answered)
			}
		})
	}
}

// An event stream lives on past WriteTimeout while its client reads; a
// client that stops reading is dropped within it.
func TestWrites(t *testing.T) {
	const limit = 300 * time.Millisecond
	writeErr := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stream" {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := range 8 {
				_, _ = io.WriteString(w, "data: "+string(rune('0'+i))+"\n\n")
				w.(http.Flusher).Flush()
				time.Sleep(limit / 3) // the stream's own pace, longer than the limit in all
			}
			return
		}
		chunk := make([]byte, 1<<20)
		for range 512 { // far more than the socket buffers hold
			if _, err := w.Write(chunk); err != nil {
				writeErr <- err
				return
			}
		}
		writeErr <- nil
	})
	addr := serve(t, sellerhttp.New("", h, sellerhttp.Options{WriteTimeout: limit}))
	resp, err := http.Get("http://" + addr + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if n := strings.Count(string(body), "data: "); n != 8 {
		t.Fatalf("%d events of 8: %q", n, body)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET /big HTTP/1.1\r\nHost: seller\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	select { // never read
	case err := <-writeErr:
		if err == nil {
			t.Fatal("512 MiB written to a client that reads nothing")
		}
	case <-time.After(bound):
		t.Fatal("the write to a client that reads nothing never failed")
	}
}

// Headers past MaxHeaderBytes are refused (431); a client that never
// finishes its headers is disconnected.
func TestHeaders(t *testing.T) {
	addr := serve(t, sellerhttp.New("", http.NotFoundHandler(), sellerhttp.Options{MaxHeaderBytes: 4 << 10, ReadHeaderTimeout: 200 * time.Millisecond}))
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/", nil)
	req.Header.Set("X-Pad", strings.Repeat("x", 16<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("%v %v", resp, err)
	}
	resp.Body.Close()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = io.WriteString(c, "GET / HTTP/1.1\r\nHost: sel")
	_ = c.SetReadDeadline(time.Now().Add(bound))
	if _, err := io.ReadAll(c); err != nil {
		t.Fatalf("the connection was not closed: %v", err)
	}
}
