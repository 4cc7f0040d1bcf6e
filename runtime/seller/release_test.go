package seller_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/release"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// releaseSeller is a seller of a published version serving list_accounts
// (and, on 3.0, sync_plans, whose request schema admits no undeclared
// member) with raw handlers, every request and response checked against
// the version's schemas. ran counts the calls its handlers answered.
type releaseSeller struct {
	srv *seller.Server
	log *bytes.Buffer
	ran int
}

func newReleaseSeller(t *testing.T, version string, opts seller.Options) *releaseSeller {
	t.Helper()
	tree, sp := specseller.Open(t, version)
	rs := &releaseSeller{log: &bytes.Buffer{}}
	opts.Schemas, opts.ValidateResponses = tree, true
	opts.Logger = slog.New(slog.NewTextHandler(rs.log, nil))
	if opts.Capabilities == nil {
		opts.Capabilities = json.RawMessage(`{"supported_protocols":["media_buy"],"account":{"supported_billing":["operator"]},"media_buy":{"supported_pricing_models":["cpm"]},"adcp":{"idempotency":{"supported":true,"replay_ttl_seconds":86400},"build_version":"` + version + `+test"}}`)
	}
	srv, err := seller.New(sp, opts)
	if err != nil {
		t.Fatal(err)
	}
	rs.srv = srv
	raw := func(name string, answer func(c *seller.Call) *seller.Answer) {
		tool, ok := sp.Tool(name)
		if !ok {
			return
		}
		srv.HandleRaw(seller.RawTool{Name: name, RequestSchema: tool.RequestSchema, ResponseSchema: tool.ResponseSchema,
			Handler: func(_ context.Context, c *seller.Call) *seller.Answer { rs.ran++; return answer(c) }})
	}
	raw("list_accounts", func(c *seller.Call) *seller.Answer {
		if wire.Lenient(c.Member("fail")).Present() {
			return seller.ErrorAnswer(&adcperr.Error{Code: "ACCOUNT_NOT_FOUND", Message: "No such account"})
		}
		return &seller.Answer{Body: json.RawMessage(`{"accounts":[]}`)}
	})
	if strings.HasPrefix(version, "3.0.") {
		raw("sync_plans", func(*seller.Call) *seller.Answer {
			return &seller.Answer{Body: json.RawMessage(`{"plans":[]}`)}
		})
	}
	return rs
}

// call serves tool with args over no transport; the answer's wire object
// is the body or ErrorObject's.
func (rs *releaseSeller) call(t *testing.T, tool, args string) (*seller.Answer, wire.Lenient) {
	t.Helper()
	a := rs.srv.Serve(context.Background(), tool, &seller.Call{Principal: seller.Principal{ID: "p"}, Arguments: json.RawMessage(args)})
	obj := wire.Lenient(a.Body)
	if a.Error != nil {
		b, err := seller.ErrorObject(a)
		if err != nil {
			t.Fatal(err)
		}
		obj = b
	}
	return a, obj
}

func wireRelease(t *testing.T, version string) string {
	t.Helper()
	r, err := release.Of(version)
	if err != nil {
		t.Fatal(err)
	}
	return r.String()
}

// TestReleaseOnEveryVersion: a seller of one published version lists its
// release in supported_versions, echoes it as adcp_version on every answer
// (valid against the version's response schemas), serves pins that
// resolve to it and refuses the others with VERSION_UNSUPPORTED and its
// releases in the details.
func TestReleaseOnEveryVersion(t *testing.T) {
	for _, v := range specseller.Versions {
		t.Run(v.Version, func(t *testing.T) {
			rs := newReleaseSeller(t, v.Version, seller.Options{})
			rel := wireRelease(t, v.Version)
			if got := rs.srv.Release(); got != rel {
				t.Errorf("Release() = %q, want %q", got, rel)
			}

			a, obj := rs.call(t, "get_adcp_capabilities", `{"context":{"k":1}}`)
			if a.Error != nil {
				t.Fatalf("capabilities: %v\n%s", a.Error, rs.log)
			}
			if got := string(obj.Get("adcp").Get("supported_versions")); got != `["`+rel+`"]` {
				t.Errorf("supported_versions %s, want [%q]", got, rel)
			}
			if got := string(obj.Get("adcp").Get("major_versions")); got != `[3]` {
				t.Errorf("major_versions %s", got)
			}
			if !obj.Get("adcp_version").StringIs(rel) || a.Release != rel {
				t.Errorf("capabilities echo %s (Answer.Release %q), want %q", obj.Get("adcp_version"), a.Release, rel)
			}

			for _, tc := range []struct{ name, args, echo, code, field string }{
				{name: "no pin", args: `{}`, echo: rel},
				{name: "the release", args: `{"adcp_version":"` + rel + `","adcp_major_version":3}`, echo: rel},
				{name: "the major alone", args: `{"adcp_major_version":3}`, echo: rel},
				{name: "a patch", args: `{"adcp_version":"` + v.Version + `"}`, code: "VERSION_UNSUPPORTED", field: "adcp_version"},
				{name: "another major", args: `{"adcp_version":"4.0","adcp_major_version":4}`, code: "VERSION_UNSUPPORTED", field: "adcp_version"},
				{name: "the grader's major", args: `{"adcp_major_version":99}`, code: "VERSION_UNSUPPORTED", field: "adcp_major_version"},
				{name: "disagreeing", args: `{"adcp_version":"` + rel + `","adcp_major_version":4}`, code: "VERSION_UNSUPPORTED", field: "adcp_major_version"},
				{name: "a handler's error", args: `{"fail":true}`, echo: rel, code: "ACCOUNT_NOT_FOUND"},
			} {
				a, obj := rs.call(t, "list_accounts", tc.args)
				if tc.code == "" {
					if a.Error != nil {
						t.Errorf("%s: %v\n%s", tc.name, a.Error, rs.log)
						continue
					}
				} else if a.Error == nil || a.Error.Code != tc.code || a.Error.Field != tc.field {
					t.Errorf("%s: got %s, want %s at %q", tc.name, obj, tc.code, tc.field)
					continue
				}
				if got, _ := obj.Get("adcp_version").AsString(); got != tc.echo || a.Release != tc.echo {
					t.Errorf("%s: echo %q (Answer.Release %q), want %q: %s", tc.name, got, a.Release, tc.echo, obj)
				}
				// From 3.1 an error answer served in a release is the
				// failed payload too (status and errors[], beside
				// adcp_error).
				if tc.code != "" && tc.echo != "" {
					later := !strings.HasPrefix(v.Version, "3.0.")
					if got := obj.Get("status").StringIs("failed") && obj.Get("errors").Index(0).Get("code").StringIs(tc.code); got != later {
						t.Errorf("%s: failed payload %v, want %v: %s", tc.name, got, later, obj)
					}
				}
				if tc.code != "VERSION_UNSUPPORTED" {
					continue
				}
				var d release.Unsupported
				if err := json.Unmarshal(a.Error.RawDetails(), &d); err == nil {
					t.Errorf("%s: details are raw", tc.name)
				}
				details, _ := json.Marshal(a.Error.Details)
				if err := json.Unmarshal(details, &d); err != nil || !slices.Equal(d.SupportedVersions, []string{rel}) ||
					!slices.Equal(d.SupportedMajors, []int{3}) || d.BuildVersion != v.Version+"+test" {
					t.Errorf("%s: details %s", tc.name, details)
				}
			}

			// The pin of a later release of the major is served in this one
			// (a downshift): 3.1 buyers reach a 3.0 seller, whose schemas
			// do not declare adcp_version, even on a tool that admits no
			// undeclared member.
			a, obj = rs.call(t, "list_accounts", `{"adcp_version":"3.9","adcp_major_version":3}`)
			switch r, _ := release.FromWire(rel); {
			case r.Prerelease():
				if a.Error == nil || a.Error.Code != "VERSION_UNSUPPORTED" {
					t.Errorf("3.9 served by a pre-release seller: %s", obj)
				}
			case a.Error != nil || !obj.Get("adcp_version").StringIs(rel):
				t.Errorf("3.9 not served in %s: %s\n%s", rel, obj, rs.log)
			}
			if strings.HasPrefix(v.Version, "3.0.") {
				if a, obj := rs.call(t, "sync_plans", `{"adcp_version":"3.1","idempotency_key":"k-0123456789abcdef","plans":[]}`); a.Error != nil || !obj.Get("adcp_version").StringIs("3.0") {
					t.Errorf("sync_plans with a 3.1 pin: %s\n%s", obj, rs.log)
				}
				if a, obj := rs.call(t, "sync_plans", `{"adcp_versions":"3.1","idempotency_key":"k-0123456789abcdef","plans":[]}`); a.Error == nil || a.Error.Code != "INVALID_REQUEST" {
					t.Errorf("sync_plans with an undeclared member served: %s", obj)
				}
			}
		})
	}
}

// TestReleasesTogether: one endpoint serving the three published releases,
// each by its own server: every call is answered by the server of the
// release it resolves to, with the echo, a payload valid for that
// release, and all three releases in each release's capabilities.
func TestReleasesTogether(t *testing.T) {
	tasks := sellertask.New(registry.NewSpec(registry.SpecConfig{Version: "3.0.26"}), sellertask.Options{})
	var servers []*releaseSeller
	for _, v := range specseller.Versions {
		servers = append(servers, newReleaseSeller(t, v.Version, seller.Options{Tasks: tasks}))
	}
	s30, s31, s32 := servers[0], servers[1], servers[2]
	for _, r := range servers[1:] {
		if err := s30.srv.AddRelease(r.srv); err != nil {
			t.Fatal(err)
		}
	}
	// A tool only 3.2 serves.
	s32.srv.HandleRaw(seller.RawTool{Name: "list_products_probe", Handler: func(context.Context, *seller.Call) *seller.Answer {
		return &seller.Answer{Body: json.RawMessage(`{}`)}
	}})
	want := []string{"3.0", "3.1", "3.2-beta.5"}
	if got := s30.srv.Releases(); len(got) != 3 || got[0] != s30.srv || got[2] != s32.srv {
		t.Fatalf("Releases() = %v", got)
	}
	for _, tc := range []struct {
		name, args string
		by         *releaseSeller
		echo, code string
	}{
		{name: "3.0", args: `{"adcp_version":"3.0","adcp_major_version":3}`, by: s30, echo: "3.0"},
		{name: "3.1", args: `{"adcp_version":"3.1","adcp_major_version":3}`, by: s31, echo: "3.1"},
		{name: "3.2-beta.5", args: `{"adcp_version":"3.2-beta.5","adcp_major_version":3}`, by: s32, echo: "3.2-beta.5"},
		{name: "none: the default", args: `{}`, by: s30, echo: "3.0"},
		{name: "the major alone: its highest release", args: `{"adcp_major_version":3}`, by: s31, echo: "3.1"},
		{name: "3.2: never onto the beta", args: `{"adcp_version":"3.2"}`, by: s31, echo: "3.1"},
		{name: "another beta", args: `{"adcp_version":"3.2-beta.3"}`, code: "VERSION_UNSUPPORTED"},
		{name: "another major", args: `{"adcp_version":"4.0","adcp_major_version":4}`, code: "VERSION_UNSUPPORTED"},
		{name: "a patch", args: `{"adcp_version":"3.1.19"}`, code: "VERSION_UNSUPPORTED"},
	} {
		before := []int{s30.ran, s31.ran, s32.ran}
		a, obj := s30.call(t, "list_accounts", tc.args)
		if tc.code != "" {
			if a.Error == nil || a.Error.Code != tc.code || obj.Get("adcp_version").Present() {
				t.Errorf("%s: %s, want %s without an echo", tc.name, obj, tc.code)
			}
			details, _ := json.Marshal(a.Error.Details)
			if !strings.Contains(string(details), `"supported_versions":["3.0","3.1","3.2-beta.5"]`) {
				t.Errorf("%s: details %s", tc.name, details)
			}
			continue
		}
		if a.Error != nil || !obj.Get("adcp_version").StringIs(tc.echo) {
			t.Errorf("%s: %s, want an answer in %s\n%s%s%s", tc.name, obj, tc.echo, s30.log, s31.log, s32.log)
		}
		for i, r := range servers {
			if ran := r.ran - before[i]; ran != map[bool]int{true: 1, false: 0}[r == tc.by] {
				t.Errorf("%s: the server of %s ran %d times", tc.name, want[i], ran)
			}
		}
	}
	// Every release's capabilities list the endpoint's releases, each
	// valid against its own schema.
	for _, pin := range want {
		a, obj := s30.call(t, "get_adcp_capabilities", `{"adcp_version":"`+pin+`"}`)
		if a.Error != nil || !obj.Get("adcp_version").StringIs(pin) ||
			string(obj.Get("adcp").Get("supported_versions")) != `["3.0","3.1","3.2-beta.5"]` {
			t.Errorf("capabilities at %s: %s %v\n%s%s%s", pin, obj, a.Error, s30.log, s31.log, s32.log)
		}
	}
	// A tool of one release only.
	if a, obj := s30.call(t, "list_products_probe", `{"adcp_version":"3.2-beta.5"}`); a.Error != nil || !obj.Get("adcp_version").StringIs("3.2-beta.5") {
		t.Errorf("3.2's own tool at 3.2: %s", obj)
	}
	if a, obj := s30.call(t, "list_products_probe", `{"adcp_version":"3.1"}`); a.Error == nil || a.Error.Code != "UNSUPPORTED_FEATURE" ||
		!strings.Contains(a.Error.Message, "in AdCP 3.1") || !obj.Get("adcp_version").StringIs("3.1") {
		t.Errorf("3.2's own tool at 3.1: %s", obj)
	}
	if !s30.srv.Public("get_adcp_capabilities") {
		t.Error("get_adcp_capabilities is not public")
	}

	// What AddRelease refuses.
	other := newReleaseSeller(t, "3.1.19", seller.Options{Tasks: tasks})
	if err := s30.srv.AddRelease(other.srv); err == nil || !strings.Contains(err.Error(), "served already") {
		t.Errorf("a second 3.1: %v", err)
	}
	own := newReleaseSeller(t, "3.2.0-beta.5", seller.Options{Tasks: sellertask.New(registry.NewSpec(registry.SpecConfig{}), sellertask.Options{})})
	if err := newReleaseSeller(t, "3.0.26", seller.Options{Tasks: tasks}).srv.AddRelease(own.srv); err == nil || !strings.Contains(err.Error(), "TaskManager") {
		t.Errorf("a TaskManager of its own: %v", err)
	}
	if err := other.srv.AddRelease(s32.srv); err == nil || !strings.Contains(err.Error(), "serves with other releases") {
		t.Errorf("a server of another endpoint: %v", err)
	}
}

// TestMajorOnlyToDefault: an endpoint that keeps its 3.0 buyers whole
// serves the major alone in its default release, a pin as it resolves.
func TestMajorOnlyToDefault(t *testing.T) {
	srv := specseller.Endpoint(t, seller.Options{MajorOnlyToDefault: true})
	for args, echo := range map[string]string{
		`{"adcp_major_version":3}`: "3.0",
		`{}`:                       "3.0",
		`{"adcp_version":"3.1","adcp_major_version":3}`: "3.1",
		`{"adcp_version":"3.2-beta.5"}`:                 "3.2-beta.5",
	} {
		a := srv.Serve(context.Background(), "list_accounts", &seller.Call{Arguments: json.RawMessage(args)})
		if a.Error != nil || !wire.Lenient(a.Body).Get("adcp_version").StringIs(echo) {
			t.Errorf("%s: %s %v, want an answer in %s", args, a.Body, a.Error, echo)
		}
	}
}

// TestUndeclaredRelease: a call that declares no release is answered in
// UndeclaredRelease, the major alone still in the default's (with
// MajorOnlyToDefault); a release never added leaves such calls to the
// default server, and a value that is no release is refused by New.
func TestUndeclaredRelease(t *testing.T) {
	srv := specseller.Endpoint(t, seller.Options{MajorOnlyToDefault: true, UndeclaredRelease: "3.1"})
	for args, echo := range map[string]string{
		`{}`:                       "3.1",
		`{"adcp_major_version":3}`: "3.0",
		`{"adcp_version":"3.2-beta.5","adcp_major_version":3}`: "3.2-beta.5",
	} {
		a := srv.Serve(context.Background(), "list_accounts", &seller.Call{Arguments: json.RawMessage(args)})
		if a.Error != nil || !wire.Lenient(a.Body).Get("adcp_version").StringIs(echo) {
			t.Errorf("%s: %s %v, want an answer in %s", args, a.Body, a.Error, echo)
		}
	}
	unserved := specseller.Endpoint(t, seller.Options{UndeclaredRelease: "3.9"})
	if a := unserved.Serve(context.Background(), "list_accounts", &seller.Call{Arguments: json.RawMessage(`{}`)}); a.Error != nil || !wire.Lenient(a.Body).Get("adcp_version").StringIs("3.0") {
		t.Errorf("a release never added: %s %v, want the default's answer", a.Body, a.Error)
	}
	_, sp := specseller.Open(t, "3.0.26")
	if _, err := seller.New(sp, seller.Options{UndeclaredRelease: "3.1.19"}); err == nil || !strings.Contains(err.Error(), "UndeclaredRelease") {
		t.Errorf("a patch version: %v", err)
	}
}
