package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// TestCallReleases: --adcp-version against one seller of every published
// release (specseller.Endpoint: 3.0.26, 3.1.19, 3.2.0-beta.5), over MCP and
// A2A: the --spec release by default, the echo in the output, --validate
// in the echoed release, VERSION_UNSUPPORTED for a release the seller does
// not speak, a patch refused before anything is sent.
func TestCallReleases(t *testing.T) {
	srv := specseller.Endpoint(t, seller.Options{})
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
	if err != nil {
		t.Fatal(err)
	}
	opts := a2aserver.Options{URL: ts.URL + "/a2a"}
	mux.Handle("/mcp", h)
	mux.Handle("/a2a", a2aserver.NewHandler(srv, opts))
	mux.Handle("GET "+a2aserver.CardPath, a2aserver.NewCardHandler(srv, opts))
	dir := testspec.Dir(t)
	specOf := map[string]string{}
	for _, v := range specseller.Versions {
		specOf[v.Version] = filepath.Join(dir, v.Source)
	}
	for _, transport := range []string{"mcp", "a2a"} {
		agent := ts.URL + "/mcp"
		if transport == "a2a" {
			agent = ts.URL
		}
		call := func(spec string, args ...string) callRun {
			return runCallCmd(t, "", append([]string{"--agent", agent, "--transport", transport, "--spec", spec, "--tool", "list_accounts"}, args...)...)
		}
		for _, tc := range []struct {
			spec, pin, echo string
			code            int
			out             string // in stdout or stderr
		}{
			{spec: "3.0.26", echo: "3.0"},
			{spec: "3.1.19", echo: "3.1"},
			{spec: "3.2.0-beta.5", echo: "3.2-beta.5"},
			{spec: "3.1.19", pin: "3.2", echo: "3.1"}, // downshift, never onto the beta
			{spec: "3.1.19", pin: "4.0", code: 1, out: `"code": "VERSION_UNSUPPORTED"`},
			{spec: "3.1.19", pin: "3.2-beta.3", code: 1, out: `"supported_majors"`},
			{spec: "3.1.19", pin: "3.1.19", code: 2, out: "a patch is not valid on the wire"},
		} {
			args := []string{"--validate"}
			if tc.pin != "" {
				args = append(args, "--adcp-version", tc.pin)
			}
			r := call(specOf[tc.spec], args...)
			name := transport + " " + tc.spec + " --adcp-version " + tc.pin
			if tc.code != 0 {
				if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.out) {
					t.Errorf("%s: exit %d, want %d saying %s\nstdout %s\nstderr %s", name, r.code, tc.code, tc.out, r.stdout, r.stderr)
				}
				continue
			}
			if tc.echo != wireOf(tc.spec) {
				// Answered in another release than --spec's: not validated.
				if r.code != 1 || !strings.Contains(r.stderr, "answered in AdCP "+tc.echo) {
					t.Errorf("%s: exit %d\nstdout %s\nstderr %s", name, r.code, r.stdout, r.stderr)
				}
				continue
			}
			out := outputOf(t, r)
			if r.code != 0 || member(t, out, "adcp_version") != tc.echo || !strings.Contains(r.stdout, `"issues": []`) {
				t.Errorf("%s: exit %d, echo %v\nstdout %s\nstderr %s", name, r.code, member(t, out, "adcp_version"), r.stdout, r.stderr)
			}
		}
	}
}

func wireOf(version string) string {
	return map[string]string{"3.0.26": "3.0", "3.1.19": "3.1", "3.2.0-beta.5": "3.2-beta.5"}[version]
}
