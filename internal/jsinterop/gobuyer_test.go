package jsinterop_test

// These tests drive adcpgen's typed client (runtime/buyer, through
// testdata/gobuyer with bindings generated from the published 3.0.26
// bundle at test time) against the JavaScript SDK's seller.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/internal/jsinterop"
	"github.com/adcpgen/adcpgen/internal/roundtrip"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// goBuyerTools are the root schemas gobuyer needs from 3.0.26.
var goBuyerTools = []string{
	"media-buy/get-products-*",
	"media-buy/create-media-buy-*",
	"core/tasks-get-*",
	"protocol/get-adcp-capabilities-*",
}

// buildGoBuyer generates the 3.0.26 bindings gobuyer uses into a temporary
// module beside a copy of testdata/gobuyer, and builds it.
func buildGoBuyer(t *testing.T) string {
	t.Helper()
	bundle := testspec.Path(t, "protocol", "3.0.26.tgz")
	root, err := roundtrip.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tree, err := spec.Open(bundle)
	if err != nil {
		t.Fatal(err)
	}
	res, err := generator.Generate(generator.Options{Tree: tree, Package: "adcp30", Include: goBuyerTools,
		SpecName: "AdCP " + tree.Version, Source: "3.0.26", Command: "go test ./internal/jsinterop (generated for tests; never committed)"})
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range res.Files {
		write(filepath.Join("adcp30", f.Name), f.Data)
	}
	main, err := os.ReadFile(filepath.Join("testdata", "gobuyer", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	write("main.go", main)
	// The harness imports the SDK transports: it needs the root module's
	// requirements too (module graph pruning), its require blocks as they are.
	rootMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	requires := string(rootMod[strings.Index(string(rootMod), "\nrequire"):])
	write("go.mod", []byte("module "+roundtrip.ModulePath+"\n\ngo 1.26.0\n\nrequire github.com/adcpgen/adcpgen v0.0.0\n"+
		requires+"\nreplace github.com/adcpgen/adcpgen => "+root+"\n"))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", sum)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	bin, err := roundtrip.Build(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// goBuyerLine is one line gobuyer prints.
type goBuyerLine struct {
	Step       string          `json:"step"`
	Status     string          `json:"status"`
	TaskID     string          `json:"task_id"`
	Response   json.RawMessage `json:"response"`
	Code       string          `json:"code"`
	Action     string          `json:"action"`
	RetryAfter float64         `json:"retry_after"`
	Error      string          `json:"error"`
}

func runGoBuyer(t *testing.T, bin string, args ...string) map[string]goBuyerLine {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gobuyer %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	lines := map[string]goBuyerLine{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var l goBuyerLine
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("gobuyer output: %v\n%s", err, out)
		}
		lines[l.Step] = l
	}
	return lines
}

func TestTypedClientAgainstJSSeller(t *testing.T) {
	jsinterop.Require(t)
	bin := buildGoBuyer(t)
	seller := jsinterop.StartSeller(t, jsinterop.SellerOptions{APIKey: "sk_typed_client_key"})
	limited := jsinterop.StartSeller(t, jsinterop.SellerOptions{Errors: map[string]jsinterop.SellerError{
		"get_products": {Code: "RATE_LIMITED", Message: "slow down", RetryAfter: 2},
	}})
	for _, tc := range []struct {
		protocol string
		url      func(*jsinterop.Seller) string
	}{
		{"mcp", func(s *jsinterop.Seller) string { return s.MCPURL }},
		{"a2a", func(s *jsinterop.Seller) string { return s.BaseURL }},
	} {
		t.Run(tc.protocol, func(t *testing.T) {
			lines := runGoBuyer(t, bin, "-protocol", tc.protocol, "-url", tc.url(seller), "-auth", "sk_typed_client_key")
			if l := lines["get_adcp_capabilities"]; l.Status != "completed" || !bytes.Contains(l.Response, []byte(`"major_versions":[3]`)) {
				t.Errorf("get_adcp_capabilities: %+v", l)
			}
			if l := lines["get_products"]; l.Status != "completed" || !bytes.Contains(l.Response, []byte(`"product_id":"prod_display_ron"`)) {
				t.Errorf("get_products: %+v", l)
			}
			// Submitted, then followed through the tasks/get tool.
			if l := lines["create_media_buy"]; l.Status != "completed" || !bytes.Contains(l.Response, []byte(`"media_buy_id":"mb_`)) {
				t.Errorf("create_media_buy: %+v", l)
			}

			lines = runGoBuyer(t, bin, "-protocol", tc.protocol, "-url", tc.url(limited))
			if l := lines["get_products"]; l.Code != "RATE_LIMITED" || l.Action != "retry" || l.RetryAfter != 2 {
				t.Errorf("get_products error: %+v", l)
			}
		})
	}
}
