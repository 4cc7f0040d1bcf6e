package validate

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Number literals compare by exact value, whatever their spelling.
func TestDecimalCompare(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"1", "1.0", 0}, {"10e-1", "1", 0}, {"-0", "0", 0}, {"0.0e5", "-0.000", 0},
		{"0.1", "0.10000000000000001", -1}, {"100", "99.999", 1}, {"-1", "-2", 1},
		{"1e400", "1e399", 1}, {"-1e-400", "0", -1}, {"12.3400", "1234e-2", 0}, {"5", "50e-1", 0},
	}
	for _, tc := range cases {
		if got := cmpDecimal(parseDecimal([]byte(tc.a), nil), parseDecimal([]byte(tc.b), nil)); got != tc.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	for _, lit := range []string{"0", "-0", "0.0e7", "-0.5", "3", "-12e-3", "0.001", "-0.000"} {
		if got, want := literalSign([]byte(lit)), cmpDecimal(parseDecimal([]byte(lit), nil), decimal{}); got != want {
			t.Errorf("literalSign(%s) = %d, want %d", lit, got, want)
		}
	}
	for lit, want := range map[string]bool{"1": true, "1.0": true, "1.5": false, "15e-1": false, "1e2": true, "0": true, "-0.0": true, "123e-3": false} {
		if got := parseDecimal([]byte(lit), nil).isInt(); got != want {
			t.Errorf("isInt(%s) = %v", lit, got)
		}
	}
}

// The fast path skips format checks of non-strings: every format must
// pass them, as the reference asks every format about every value.
func TestFormatsPassNonStrings(t *testing.T) {
	all := map[string]func(any) bool{}
	for name, f := range jsonschema.Formats {
		all[name] = f
	}
	for name, f := range formats() {
		all[name] = f
	}
	for name, f := range all {
		for _, v := range []any{nil, true, json.Number("1"), 1.5, []any{"x"}, map[string]any{"a": "b"}} {
			if !f(v) {
				t.Errorf("format %s rejects the non-string %#v", name, v)
			}
		}
	}
}

// Payloads the fast path cannot decide alike go to the reference: a
// duplicate declared property, whose last value the reference keeps. A
// duplicate in an object no schema constrains cannot matter and is decided.
func TestFastPathHandsOverDuplicates(t *testing.T) {
	v := versionValidator(t, "3.0.26")
	ref, err := New(v.tree, Options{Reference: true})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		schema, payload string
		handOver        bool
	}{
		{"core/error.json", `{"code":"X","message":"m","code":5}`, true},
		{"core/error.json", `{"code":5,"message":"m","code":"X"}`, true},
		{"core/error.json", `{"code":"X","message":"m","details":{"a":1,"a":2}}`, false},
		{"media-buy/get-products-request.json", `{"buying_mode":"brief","brief":"b","brief":"c"}`, true},
	}
	for _, tc := range cases {
		fs, err := v.Schema(tc.schema)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := fs.FastPath(); !ok {
			t.Fatalf("%s is off the fast path", tc.schema)
		}
		_, _, decided := fs.validateFast([]byte(tc.payload))
		rs, _ := ref.Schema(tc.schema)
		got, gerr := fs.Validate([]byte(tc.payload))
		want, werr := rs.Validate([]byte(tc.payload))
		if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) {
			t.Errorf("%s %s: fast %v %v, reference %v %v", tc.schema, tc.payload, got, gerr, want, werr)
		}
		if decided == tc.handOver {
			t.Errorf("%s %s: fast path decided %v, want %v", tc.schema, tc.payload, decided, !tc.handOver)
		}
	}
}

// The fast path allocates nothing on a valid payload once warm, beyond a
// handful for the pooled evaluator.
func TestFastPathAllocations(t *testing.T) {
	v := versionValidator(t, "3.0.26")
	s, err := v.Tool("get_products", Response)
	if err != nil {
		t.Fatal(err)
	}
	data := benchFixture(t)
	allocs := testing.AllocsPerRun(20, func() {
		if is, err := s.Validate(data); err != nil || len(is) != 0 {
			t.Fatalf("issues %v, err %v", is, err)
		}
	})
	if allocs > 50 {
		t.Errorf("%.0f allocations per validation of the fixture, want at most 50", allocs)
	}
}

// Validations on the fast path run while other roots, sharing nodes with
// them, compile (run with -race).
func TestFastPathConcurrentCompile(t *testing.T) {
	v, err := New(versionValidator(t, "3.0.26").tree, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := v.Tool("get_products", Response)
	if err != nil {
		t.Fatal(err)
	}
	data := benchFixture(t)
	tools := []string{"create_media_buy", "get_signals", "sync_creatives", "list_creative_formats", "update_media_buy"}
	done := make(chan error, len(tools)+4)
	for i := 0; i < 4; i++ {
		go func() {
			for k := 0; k < 5; k++ {
				if is, err := s.Validate(data); err != nil || len(is) != 0 {
					done <- fmt.Errorf("issues %v, err %v", is, err)
					return
				}
			}
			done <- nil
		}()
	}
	for _, tool := range tools {
		go func() {
			_, err := v.ValidateTool(tool, Response, data)
			done <- err
		}()
	}
	for i := 0; i < len(tools)+4; i++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
