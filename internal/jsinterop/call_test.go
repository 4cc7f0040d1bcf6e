package jsinterop_test

// adcpgen call (the untyped client core behind the CLI) against the
// JavaScript SDK's seller.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
	"github.com/adcpgen/adcpgen/internal/roundtrip"
	"github.com/adcpgen/adcpgen/internal/testspec"
)

func TestCallAgainstJSSeller(t *testing.T) {
	jsinterop.Require(t)
	bundle := testspec.Path(t, "protocol", "3.0.26.tgz")
	root, err := roundtrip.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "adcpgen")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/adcpgen")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/adcpgen: %v\n%s", err, out)
	}
	const key = "sk_call_test_key"
	seller := jsinterop.StartSeller(t, jsinterop.SellerOptions{APIKey: key, Errors: map[string]jsinterop.SellerError{
		"get_media_buys": {Code: "RATE_LIMITED", Message: "slow down", RetryAfter: 2},
	}})
	request := filepath.Join(t.TempDir(), "create.json")
	if err := os.WriteFile(request, createMediaBuyNoKey, 0o644); err != nil {
		t.Fatal(err)
	}
	type output struct {
		Status         string          `json:"status"`
		TaskID         *string         `json:"task_id"`
		IdempotencyKey *string         `json:"idempotency_key"`
		Data           json.RawMessage `json:"data"`
		Code           string          `json:"code"`
		Action         string          `json:"action"`
		RetryAfter     *int            `json:"retry_after"`
		Validation     *struct {
			Issues []json.RawMessage `json:"issues"`
		} `json:"validation"`
	}
	call := func(t *testing.T, wantExit int, args ...string) output {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), bin, append([]string{"call", "--spec", bundle, "--header", "Authorization=Bearer " + key}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var exit *exec.ExitError
		if code := 0; err != nil && !errors.As(err, &exit) || (exit != nil && exit.ExitCode() != wantExit) || (exit == nil && wantExit != code) {
			t.Fatalf("adcpgen call %q: %v (want exit %d)\nstdout: %s\nstderr: %s", args, err, wantExit, out, stderr.Bytes())
		}
		var o output
		if err := json.Unmarshal(out, &o); err != nil {
			t.Fatalf("adcpgen call %q: %v\n%s", args, err, out)
		}
		return o
	}
	for _, tc := range []struct{ transport, agent string }{
		{"mcp", seller.MCPURL},
		{"a2a", seller.BaseURL},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			o := call(t, 0, "--transport", tc.transport, "--agent", tc.agent, "--tool", "create_media_buy", "--request", request, "--wait", "--validate")
			// The key was made by the client; the buy completed through tasks/get
			// and its result is valid against 3.0.26.
			var buy struct {
				MediaBuyID string `json:"media_buy_id"`
			}
			json.Unmarshal(o.Data, &buy)
			if o.Status != "completed" || o.IdempotencyKey == nil || buy.MediaBuyID == "" {
				t.Errorf("create_media_buy --wait: status %s, key %v, data %s", o.Status, o.IdempotencyKey, o.Data)
			}
			if o.Validation == nil || len(o.Validation.Issues) != 0 {
				t.Errorf("create_media_buy --wait: schema issues %+v", o.Validation)
			}
			o = call(t, 1, "--transport", tc.transport, "--agent", tc.agent, "--tool", "get_media_buys")
			if o.Code != "RATE_LIMITED" || o.Action != "retry" || o.RetryAfter == nil || *o.RetryAfter != 2 {
				t.Errorf("get_media_buys: %+v", o)
			}
		})
	}
}

// createMediaBuyNoKey asks seller.mjs for a submitted buy, without an
// idempotency_key.
var createMediaBuyNoKey = []byte(`{"account":{"account_id":"acc_test"},"brand":{"domain":"acme.example"},"po_number":"async-call",` +
	`"start_time":"2027-01-01T00:00:00Z","end_time":"2027-01-31T00:00:00Z",` +
	`"packages":[{"product_id":"prod_display_ron","budget":1000,"pricing_option_id":"cpm_usd"}]}`)
