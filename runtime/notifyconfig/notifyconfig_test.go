package notifyconfig_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/notifyconfig"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The rules every seller applies to an account's notification_configs[]
// and to agent-level ones, each refusal naming the field to correct.
func TestRead(t *testing.T) {
	const hook = `"url":"https://buyer.example/hooks/a"`
	for _, tc := range []struct {
		name   string
		scope  notifyconfig.Scope
		array  string
		issues []validate.Issue
		n      int    // subscribers read
		field  string // the first refusal's field, "" for none
	}{
		{"a paused subscriber", notifyconfig.AccountLevel, `[{"subscriber_id":"buyer-primary",` + hook + `,"event_types":["creative.status_changed","creative.purged"],"active":false}]`, nil, 1, ""},
		{"a subscriber named twice", notifyconfig.AccountLevel, `[{"subscriber_id":"p",` + hook + `,"event_types":["creative.status_changed"]},{"subscriber_id":"p",` + hook + `,"event_types":["creative.purged"]}]`, nil, 1, "notification_configs[1].subscriber_id"},
		{"a media-buy event on an account", notifyconfig.AccountLevel, `[{"subscriber_id":"d",` + hook + `,"event_types":["scheduled"],"active":false}]`, nil, 0, "notification_configs[0].event_types[0]"},
		{"an agent event on an account", notifyconfig.AccountLevel, `[{"subscriber_id":"d",` + hook + `,"event_types":["creative.purged","capabilities.changed"]}]`, nil, 0, "notification_configs[0].event_types[1]"},
		{"capabilities.changed on the agent", notifyconfig.AgentLevel, `[{"subscriber_id":"registry-cache",` + hook + `,"event_types":["capabilities.changed"]}]`, nil, 1, ""},
		{"an account event on the agent", notifyconfig.AgentLevel, `[{"subscriber_id":"r",` + hook + `,"event_types":["creative.purged"]}]`, nil, 0, "notification_configs[0].event_types[0]"},
		{"an internal URL, paused or not", notifyconfig.AccountLevel, `[{"subscriber_id":"i","url":"https://10.0.0.1/h","event_types":["creative.purged"],"active":false}]`, nil, 0, "notification_configs[0].url"},
		{"plain http", notifyconfig.AccountLevel, `[{"subscriber_id":"i","url":"http://buyer.example/h","event_types":["creative.purged"]}]`, nil, 0, "notification_configs[0].url"},
		{"no event type", notifyconfig.AccountLevel, `[{"subscriber_id":"e",` + hook + `,"event_types":[]}]`, nil, 0, "notification_configs[0].event_types"},
		{"a schema issue in an entry", notifyconfig.AccountLevel, `[{"subscriber_id":"ok",` + hook + `,"event_types":["creative.purged"]},{"subscriber_id":"s",` + hook + `,"event_types":["window.opened"]}]`,
			[]validate.Issue{{Pointer: "/1/event_types/0", Message: "value must be one of ...", Keyword: "enum"}}, 1, "notification_configs[1].event_types[0]"},
		{"not an array", notifyconfig.AccountLevel, `{}`, nil, 0, "notification_configs"},
		{"cleared", notifyconfig.AccountLevel, `[]`, nil, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set, refusals := notifyconfig.Read(json.RawMessage(tc.array), notifyconfig.ReadOptions{Scope: tc.scope, Issues: tc.issues})
			if len(set) != tc.n {
				t.Errorf("%d subscribers, want %d", len(set), tc.n)
			}
			switch {
			case tc.field == "" && len(refusals) > 0:
				t.Fatalf("refused: %+v", refusals[0])
			case tc.field != "" && (len(refusals) == 0 || refusals[0].Field != tc.field || refusals[0].Code != "VALIDATION_ERROR" || refusals[0].Recovery != "correctable"):
				t.Fatalf("refusals %+v, want one of %s", refusals, tc.field)
			}
		})
	}
}

// On every release that has account-level notification_configs (3.1 and
// later), a sync_accounts request registering a media-buy event on an
// account is refused for that entry, the same field named, whether the
// release's schema lists the type (3.1.19's notification-type enum does)
// or not (3.2's account-level enum does not: the schema issue is the
// entry's).
func TestReadOnEveryRelease(t *testing.T) {
	const req = `{"idempotency_key":"notification-config-scope-0001","accounts":[{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example",` +
		`"billing":"operator","sandbox":true,"notification_configs":[{"subscriber_id":"delivery-reports","url":"https://example.com/webhooks/adcp/account",` +
		`"event_types":["scheduled"],"active":false}]}]}`
	for _, v := range testspec.Versions {
		if v.Version < "3.1" {
			continue
		}
		t.Run(v.Version, func(t *testing.T) {
			tree, err := spec.Open(filepath.Join(testspec.Dir(t), v.Source))
			if err != nil {
				t.Fatal(err)
			}
			val, err := validate.New(tree, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			issues, err := val.Validate("account/sync-accounts-request.json", []byte(req))
			if err != nil {
				t.Fatal(err)
			}
			const prefix = "/accounts/0/notification_configs"
			var within []validate.Issue
			for _, is := range issues {
				if !strings.HasPrefix(is.Pointer, prefix+"/") {
					t.Fatalf("an issue outside the notification configs: %+v", is)
				}
				is.Pointer = strings.TrimPrefix(is.Pointer, prefix)
				within = append(within, is)
			}
			array := wire.Lenient(req).Get("accounts").Index(0).Get("notification_configs")
			_, refusals := notifyconfig.Read(array.Raw(), notifyconfig.ReadOptions{Scope: notifyconfig.AccountLevel, Issues: within})
			if len(refusals) != 1 || refusals[0].Field != "notification_configs[0].event_types[0]" {
				t.Fatalf("issues %+v, refusals %+v", issues, refusals)
			}
		})
	}
}

// A replacement is declarative: keyed by subscriber_id, in place; paused
// entries kept; [] clears; the same set again is unchanged; a dry run
// changes nothing.
func TestRegistrySync(t *testing.T) {
	ctx := context.Background()
	reg := notifyconfig.New(notifyconfig.Options{})
	parse := func(array string) []notifyconfig.Config {
		t.Helper()
		set, refusals := notifyconfig.Read(json.RawMessage(array), notifyconfig.ReadOptions{Scope: notifyconfig.AccountLevel})
		if len(refusals) > 0 {
			t.Fatalf("%s: %+v", array, refusals[0])
		}
		return set
	}
	step := func(array string, dry bool, want notifyconfig.Change, echo string) {
		t.Helper()
		action, set, err := reg.Sync(ctx, "acct_1", parse(array), dry)
		if err != nil || action != want {
			t.Fatalf("%s: %s %v, want %s", array, action, err, want)
		}
		got, err := notifyconfig.Echo(set)
		if err != nil || string(got) != echo {
			t.Fatalf("%s: echo %s %v, want %s", array, got, err, echo)
		}
	}
	paused := `[{"subscriber_id":"buyer-primary","url":"https://example.com/a","event_types":["creative.status_changed"],"active":false}]`
	step(`[]`, false, notifyconfig.Unchanged, `[]`)
	step(paused, true, notifyconfig.Updated, paused)
	if set, _ := reg.List(ctx, "acct_1"); len(set) != 0 {
		t.Fatal("a dry run applied")
	}
	step(paused, false, notifyconfig.Updated, paused)
	step(paused, false, notifyconfig.Unchanged, paused)
	replaced := `[{"subscriber_id":"buyer-primary","url":"https://example.com/b","event_types":["creative.purged"],"active":false}]`
	step(replaced, false, notifyconfig.Updated, replaced)
	if subs, _ := reg.Subscribers(ctx, "acct_1", "creative.purged"); len(subs) != 0 {
		t.Fatal("a paused subscriber is fired at")
	}
	resumed := `[{"subscriber_id":"buyer-primary","url":"https://example.com/b","event_types":["creative.purged"]}]`
	step(resumed, false, notifyconfig.Updated, `[{"active":true,"subscriber_id":"buyer-primary","url":"https://example.com/b","event_types":["creative.purged"]}]`)
	if subs, _ := reg.Subscribers(ctx, "acct_1", "creative.purged"); len(subs) != 1 {
		t.Fatal("the resumed subscriber is not fired at")
	}
	step(`[]`, true, notifyconfig.Cleared, `[]`)
	step(`[]`, false, notifyconfig.Cleared, `[]`)
	step(`[]`, false, notifyconfig.Unchanged, `[]`)
}

// Credentials are write-only: the echo keeps the scheme, drops them.
func TestEchoLeavesOutCredentials(t *testing.T) {
	set, refusals := notifyconfig.Read(json.RawMessage(`[{"subscriber_id":"legacy","url":"https://example.com/h","event_types":["creative.purged"],`+
		`"authentication":{"schemes":["HMAC-SHA256"],"credentials":"0123456789abcdef0123456789abcdef"}}]`), notifyconfig.ReadOptions{Scope: notifyconfig.AccountLevel})
	if len(refusals) > 0 {
		t.Fatal(refusals[0])
	}
	got, err := notifyconfig.Echo(set)
	if err != nil || strings.Contains(string(got), "0123456789") || !strings.Contains(string(got), `"schemes":["HMAC-SHA256"]`) {
		t.Fatalf("echo %s %v", got, err)
	}
}

// A new or changed active subscriber is activated once its endpoint
// echoes the signed challenge; one that echoes another value, or none,
// leaves the old set as it was; a paused one is not challenged, nor one
// proved before and unchanged.
func TestChallenge(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	profile, err := signing.WebhookProfile("3.2.0-beta.5")
	if err != nil {
		t.Fatal(err)
	}
	signer, err := signing.NewSigner(signing.SignerOptions{Key: priv, KeyID: "seller-webhook-1", Profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	var challenges []map[string]any
	answer := "echo"
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var c map[string]any
		json.Unmarshal(body, &c)
		if r.Header.Get("Signature-Input") == "" || !strings.Contains(r.Header.Get("Signature-Input"), "content-digest") {
			http.Error(w, "unsigned", http.StatusUnauthorized)
			return
		}
		challenges = append(challenges, c)
		switch answer {
		case "echo":
			json.NewEncoder(w).Encode(map[string]any{"challenge": c["challenge"]})
		case "token":
			json.NewEncoder(w).Encode(map[string]any{"token": c["challenge"]})
		case "other":
			json.NewEncoder(w).Encode(map[string]any{"challenge": strings.Repeat("x", 43)})
		}
	}))
	defer ts.Close()
	urls := untrusted.PushURLPolicy{AllowLoopback: true}
	ch := &notifyconfig.Challenger{Scope: notifyconfig.AccountLevel, Signer: signer, AgentURL: "https://seller.example/mcp", Client: ts.Client(), URLs: urls}
	reg := notifyconfig.New(notifyconfig.Options{Prove: ch.Prove})
	sync := func(array string) error {
		set, refusals := notifyconfig.Read(json.RawMessage(array), notifyconfig.ReadOptions{Scope: notifyconfig.AccountLevel, URLs: urls})
		if len(refusals) > 0 {
			t.Fatal(refusals[0])
		}
		_, _, err := reg.Sync(context.Background(), "acct_9", set, false)
		return err
	}
	active := `[{"subscriber_id":"s","url":"` + ts.URL + `/hook","event_types":["creative.status_changed"]}]`
	if err := sync(active); err != nil || len(challenges) != 1 {
		t.Fatalf("%v, %d challenges", err, len(challenges))
	}
	c := challenges[0]
	if c["type"] != "webhook.challenge" || c["account_id"] != "acct_9" || c["subscriber_id"] != "s" || c["seller_agent_url"] != "https://seller.example/mcp" ||
		len(c["challenge"].(string)) < 32 || c["delivery_auth"].(map[string]any)["mode"] != "rfc9421" {
		t.Fatalf("challenge %+v", c)
	}
	if err := sync(active); err != nil || len(challenges) != 1 {
		t.Fatalf("the same set again: %v, %d challenges", err, len(challenges))
	}
	answer = "other"
	changed := strings.Replace(active, "/hook", "/hook2", 1)
	var ae *adcperr.Error
	if err := sync(changed); !errors.As(err, &ae) || ae.Field != "notification_configs[0].url" {
		t.Fatalf("a wrong echo: %v", err)
	}
	if set, _ := reg.List(context.Background(), "acct_9"); len(set) != 1 || set[0].URL != ts.URL+"/hook" {
		t.Fatalf("the old set changed: %+v", set)
	}
	answer = "token"
	if err := sync(changed); err != nil {
		t.Fatalf("the older token field: %v", err)
	}
	n := len(challenges)
	if err := sync(strings.Replace(changed, `"creative.status_changed"]`, `"creative.status_changed"],"active":false`, 1)); err != nil || len(challenges) != n {
		t.Fatalf("pausing challenged: %v", err)
	}
	agent := &notifyconfig.Challenger{Scope: notifyconfig.AgentLevel, Signer: signer, AgentURL: "https://seller.example/mcp", Client: ts.Client(), URLs: urls}
	answer = "echo"
	set, _ := notifyconfig.Read(json.RawMessage(`[{"subscriber_id":"registry","url":"`+ts.URL+`/caps","event_types":["capabilities.changed"]}]`),
		notifyconfig.ReadOptions{Scope: notifyconfig.AgentLevel, URLs: urls})
	if err := agent.Prove(context.Background(), "principal-1", set[0]); err != nil {
		t.Fatal(err)
	}
	if c := challenges[len(challenges)-1]; c["scope"] != "agent" || c["account_id"] != nil {
		t.Fatalf("agent challenge %+v", c)
	}
}
