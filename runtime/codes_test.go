package runtime_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

func TestBuiltinCodes(t *testing.T) {
	b := runtime.BuiltinCodes()
	if b.Len() != 21 {
		t.Errorf("built-in table has %d codes, want the 20 of the founding document plus AUTH_MISSING", b.Len())
	}
	for code, want := range map[string]runtime.Recovery{
		"RATE_LIMITED": runtime.RecoveryTransient, "CONFLICT": runtime.RecoveryTransient,
		"AUTH_MISSING": runtime.RecoveryCorrectable, "AUTH_REQUIRED": runtime.RecoveryCorrectable,
		"BUDGET_EXHAUSTED": runtime.RecoveryTerminal,
	} {
		if got, ok := b.Lookup(code); !ok || got != want {
			t.Errorf("%s = %q, %v; want %q", code, got, ok, want)
		}
	}
	if _, ok := b.Lookup("ACCOUNT_MOVED"); ok {
		t.Error("ACCOUNT_MOVED must come from a manifest, not the built-in table")
	}
	if b.DefaultUnknownRecovery() != "" {
		t.Error("the built-in table has no unknown-code policy")
	}
}

func TestManifestTables(t *testing.T) {
	dir := testspec.Dir(t)
	var tables []*runtime.CodeTable
	for _, src := range manifestSources {
		tree, err := spec.Open(filepath.Join(dir, src))
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := runtime.LoadManifestCodes(tree.FS, src)
		if err != nil {
			t.Fatal(err)
		}
		if tbl.Len() < 40 || tbl.DefaultUnknownRecovery() != runtime.RecoveryTransient {
			t.Errorf("%s: %d codes, unknown %q", src, tbl.Len(), tbl.DefaultUnknownRecovery())
		}
		// Every built-in code has the same class in every manifest.
		if _, err := runtime.UnionCodes(tbl, runtime.BuiltinCodes()); err != nil {
			t.Errorf("%s disagrees with the built-in table: %v", src, err)
		}
		tables = append(tables, tbl)
	}
	u, err := runtime.UnionCodes(tables...)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := u.Lookup("ACCOUNT_MOVED"); !ok || r != runtime.RecoveryCorrectable {
		t.Errorf("union: ACCOUNT_MOVED = %q, %v", r, ok)
	}
	if u.Len() < tables[2].Len() {
		t.Errorf("union has %d codes, fewer than 3.2's %d", u.Len(), tables[2].Len())
	}
	// Versions without a manifest say so.
	tree, err := spec.Open(filepath.Join(dir, "schemas/2.5.3"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runtime.LoadManifestCodes(tree.FS, "2.5.3"); !errors.Is(err, runtime.ErrNoManifest) {
		t.Errorf("2.5.3: %v, want ErrNoManifest", err)
	}
}

func TestParseManifestCodesErrors(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"not JSON", `{`, "m.json: invalid JSON at byte 1"},
		{"not an object", `[]`, "not a JSON object"},
		{"no error codes", `{}`, "/error_codes: want an object"},
		{"entry not an object", `{"error_codes":{"A":1}}`, "/error_codes/A: want an object"},
		{"recovery missing", `{"error_codes":{"A":{}}}`, "/error_codes/A/recovery: want a string"},
		{"recovery unknown", `{"error_codes":{"A/B":{"recovery":"later"}}}`, `/error_codes/A~1B/recovery: "later" is not`},
		{"bad policy", `{"error_codes":{},"error_code_policy":{"default_unknown_recovery":"never"}}`, "/error_code_policy/default_unknown_recovery"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runtime.ParseManifestCodes([]byte(c.doc), "m.json")
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "m.json") {
				t.Errorf("error = %v, want it to name m.json and contain %q", err, c.want)
			}
		})
	}
	// Through an fs.FS, the source names the tree.
	fsys := fstest.MapFS{"manifest.json": {Data: []byte(`{"error_codes":{"A":{"recovery":"x"}}}`)}}
	if _, err := runtime.LoadManifestCodes(fsys, "tree"); err == nil || !strings.Contains(err.Error(), "tree/manifest.json: /error_codes/A/recovery") {
		t.Errorf("error = %v", err)
	}
}

func TestUnionAndFallback(t *testing.T) {
	a, _ := runtime.NewCodeTable("a", map[string]runtime.Recovery{"X": runtime.RecoveryTransient}, runtime.RecoveryTransient)
	b, _ := runtime.NewCodeTable("b", map[string]runtime.Recovery{"X": runtime.RecoveryTerminal, "Y": runtime.RecoveryCorrectable}, "")
	c, _ := runtime.NewCodeTable("c", map[string]runtime.Recovery{"Y": runtime.RecoveryCorrectable}, runtime.RecoveryTerminal)
	if _, err := runtime.UnionCodes(a, b); err == nil || !strings.Contains(err.Error(), "X is transient in a but terminal in b") {
		t.Errorf("conflict: %v", err)
	}
	if _, err := runtime.UnionCodes(a, c); err == nil || !strings.Contains(err.Error(), "default_unknown_recovery") {
		t.Errorf("policy conflict: %v", err)
	}
	u, err := runtime.UnionCodes(a, nil, c.WithFallback(nil))
	if err == nil {
		t.Errorf("union of conflicting policies succeeded: %v", u.Codes())
	}
	f := b.WithFallback(a)
	if r, _ := f.Lookup("X"); r != runtime.RecoveryTerminal {
		t.Errorf("fallback must not override: X = %q", r)
	}
	if f.DefaultUnknownRecovery() != runtime.RecoveryTransient || f.Len() != 2 {
		t.Errorf("fallback table: %v, unknown %q", f.Codes(), f.DefaultUnknownRecovery())
	}
	if _, err := runtime.NewCodeTable("bad", map[string]runtime.Recovery{"X": "soon"}, ""); err == nil {
		t.Error("invalid recovery accepted")
	}
	var nilTable *runtime.CodeTable
	if _, ok := nilTable.Lookup("X"); ok || nilTable.Len() != 0 {
		t.Error("nil table is not empty")
	}
}

func TestVendorCodes(t *testing.T) {
	for _, c := range []struct {
		code, vendor, name string
		ok                 bool
	}{
		{"X_STREAMHAUS_FLOOR_NOT_MET", "STREAMHAUS", "FLOOR_NOT_MET", true},
		{"X_VENDOR_CUSTOM", "VENDOR", "CUSTOM", true},
		{"X_A1_B2", "A1", "B2", true},
		{"X_A_CODE", "", "", false},      // vendor too short
		{"X_ACME_C", "", "", false},      // code too short
		{"X_acme_CODE", "", "", false},   // lower case
		{"X_ACME_1CODE", "", "", false},  // code starts with a digit
		{"RATE_LIMITED", "", "", false},  // standard code
		{"X__ACME_CODE", "", "", false},  // empty vendor
		{"X_ACME_CODE\n", "", "", false}, // trailing newline
		{"X_" + strings.Repeat("A", 20) + "_CODE", strings.Repeat("A", 20), "CODE", true},
		{"X_" + strings.Repeat("A", 21) + "_CODE", "", "", false},
	} {
		v, n, ok := runtime.ParseVendorCode(c.code)
		if v != c.vendor || n != c.name || ok != c.ok || runtime.IsVendorCode(c.code) != c.ok {
			t.Errorf("ParseVendorCode(%q) = %q %q %v", c.code, v, n, ok)
		}
	}
	// Vendor codes without recovery classify as unknown codes: terminal by default.
	if r := (runtime.Classifier{}).Recovery("X_ACME_FLOOR"); r != runtime.RecoveryTerminal {
		t.Errorf("vendor code without recovery = %q", r)
	}
	if r := (runtime.Classifier{UnknownRecovery: runtime.RecoveryTransient}).Recovery("X_ACME_FLOOR"); r != runtime.RecoveryTransient {
		t.Errorf("vendor code with manifest policy = %q", r)
	}
}
