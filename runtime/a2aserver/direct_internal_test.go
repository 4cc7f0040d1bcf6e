package a2aserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// paths serves srv twice on loopback: with the direct path, and with
// a2a-go answering every request.
func paths(t *testing.T, srv *seller.Server, opts Options) (d *handler, direct, sdk string) {
	t.Helper()
	d = &handler{srv: srv, opts: opts, direct: true}
	a := httptest.NewServer(newHandler(d))
	b := httptest.NewServer(newHandler(&handler{srv: srv, opts: opts}))
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	return d, a.URL, b.URL
}

type exchange struct {
	status int
	header http.Header
	body   []byte
}

func post(t *testing.T, url string, header http.Header, body string) exchange {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	h := resp.Header.Clone()
	for _, k := range []string{"Date", "Content-Length", "Transfer-Encoding"} {
		h.Del(k)
	}
	return exchange{resp.StatusCode, h, b}
}

// uuids are the ids drawn at random for each task and message, by a2a-go
// and by the seller's tasks.
var uuids = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|task_[A-Z2-7]{26}`)

// The direct path sends what a2a-go sends for the same message/send,
// headers and bytes (ids drawn at random aside), and answers only what
// a2a-go reads without error: everything else still gets a2a-go's own
// answer.
func TestDirectSendsA2AGoBytes(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("x", map[string]string{"key-alice": "alice"})})
	// A payload whose own status reads as another task status: the text
	// leads (ownStatus).
	s.HandleRaw(seller.RawTool{Name: "own_status", Handler: func(context.Context, *seller.Call) *seller.Answer {
		return &seller.Answer{Body: json.RawMessage(`{"media_buy_id":"mb_1","status":"canceled","z":{"a": [1, "<&>"]}}`)}
	}})
	at := time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)
	send := func(id, data string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-1","role":"user","contextId":"ctx-1","parts":[{"kind":"data","data":` + data + `}]}}}`
	}
	skill := func(name, input string) string { return `{"skill":"` + name + `","input":` + input + `}` }
	products := `{"buying_mode":"brief","brief":"ctv","context":{"trace": "<t&1>", "note":"line` + "\u2028" + `é\u00e9 \"q\""}}`
	plain := http.Header{"Content-Type": {"application/json"}}
	alice := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer key-alice"}}
	for _, states := range []TaskStateMode{TaskStatesProtocol, TaskStatesCompleted, TaskStatesFollowDialect} {
		d, direct, sdk := paths(t, s.Server, Options{URL: "http://seller.example/a2a", Now: func() time.Time { return at }, TaskStates: states})
		for _, c := range []struct {
			name   string
			header http.Header
			body   string
			direct bool
		}{
			{"products", plain, send("1", skill("get_products", products)), true},
			{"compact", plain, send(`"a<b>&\u2028"`, skill("get_products", `{"buying_mode":"brief","context":{"t":"é \"q\""}}`)), true},
			{"big id", plain, send("12345678901234567890", skill("get_products", `{"buying_mode":"brief"}`)), true},
			{"fraction id", plain, send("2.5", skill("get_products", `{"buying_mode":"brief"}`)), true},
			{"null id", plain, send("null", skill("get_products", `{"buying_mode":"brief"}`)), true},
			{"legacy parameters", plain, send("3", `{"skill":"get_products","parameters":{"buying_mode":"brief"}}`), true},
			{"no context id", plain, `{"jsonrpc":"2.0","id":4,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"data","data":` + skill("get_products", `{"buying_mode":"brief"}`) + `}]}}}`, true},
			{"schema error", plain, send("5", skill("get_products", `{"buying_mode":"sometimes","context":{"a":1}}`)), true},
			{"seller error", plain, send("6", skill("get_products", `{"buying_mode":"brief","brief":"code:RATE_LIMITED:7"}`)), true},
			{"submitted", plain, send("7", skill("get_products", `{"buying_mode":"brief","brief":"async"}`)), true},
			{"working", plain, send("8", skill("get_products", `{"buying_mode":"brief","brief":"working","context":{"w":true}}`)), true},
			{"unknown skill", alice, send("9", skill("no_such_skill", `{}`)), true},
			{"protected, with a key", alice, send("10", skill("list_creatives", `{}`)), true},
			{"own status", alice, send("18", skill("own_status", `{"context":{"c": 1}}`)), true},
			{"no data part", alice, send("11", `{"note":"no skill"}`), true},
			{"bad input", plain, send("12", `{"skill":"get_products","input":{"buying_mode":"brief","a":1,"a":2}}`), true},
			{"spaced", plain, " {\n \"method\" : \"message/send\", \"jsonrpc\":\"2.0\", \"id\" : 13, \"params\":{\"message\":{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"user\",\"contextId\":\"c\",\"parts\":[{\"kind\":\"data\",\"data\":{\"skill\":\"get_products\",\"input\":{\"buying_mode\":\"brief\"}}}]}} } ", true},
			{"jsonrpc 1.0", plain, strings.Replace(send("14", skill("get_products", `{}`)), `"2.0"`, `"1.0"`, 1), false},
			{"bad params", plain, `{"jsonrpc":"2.0","id":15,"method":"message/send","params":{"message":{"parts":[{"kind":"nonsense"}]}}}`, false},
			{"tasks/get", alice, `{"jsonrpc":"2.0","id":16,"method":"tasks/get","params":{"id":"nope"}}`, false},
			{"message/stream", plain, strings.Replace(send("17", skill("get_products", `{"buying_mode":"brief"}`)), "message/send", "message/stream", 1), false},
		} {
			t.Run(strconv.Itoa(int(states))+" "+c.name, func(t *testing.T) {
				before := d.served.Load()
				got := post(t, direct, c.header, c.body)
				if served := d.served.Load() > before; served != c.direct {
					t.Errorf("answered by the direct path: %v, want %v (status %d: %s)", served, c.direct, got.status, got.body)
				}
				want := post(t, sdk, c.header, c.body)
				g, w := uuids.ReplaceAll(got.body, []byte("UUID")), uuids.ReplaceAll(want.body, []byte("UUID"))
				if got.status != want.status || !bytes.Equal(g, w) {
					t.Errorf("direct path: %d %s\na2a-go:      %d %s", got.status, g, want.status, w)
				}
				if !equalHeaders(got.header, want.header) {
					t.Errorf("headers: direct path %v, a2a-go %v", got.header, want.header)
				}
			})
		}
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// A call on the direct path runs with the principal the gate admitted and
// the request's header, and ends when its buyer goes away.
func TestDirectCallContext(t *testing.T) {
	seen := make(chan *seller.Call, 4)
	mw := func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, c *seller.Call) *seller.Answer {
			seen <- c
			return next(ctx, c)
		}
	}
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("x", map[string]string{"key-alice": "alice"}), Middleware: []seller.Middleware{mw}})
	d, url, _ := paths(t, s.Server, Options{URL: "http://seller.example/a2a"})
	header := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer key-alice"}, "Traceparent": {"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}
	post(t, url, header, `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","contextId":"c-7","parts":[{"kind":"data","data":{"skill":"list_creatives","input":{}}}]}}}`)
	c := <-seen
	if c.Principal.ID != "alice" || c.ContextID != "c-7" || c.Header.Get("Traceparent") == "" || d.served.Load() != 1 {
		t.Fatalf("call %+v, direct calls %d", c, d.served.Load())
	}

	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url,
		strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"data","data":{"skill":"get_products","input":{"buying_mode":"brief","brief":"hang"}}}]}}}`))
	req.Header = header
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-seen
	cancel()
	if brief := <-s.GaveUp; brief != "hang" {
		t.Fatalf("gave up on %q", brief)
	}
	<-done
}
