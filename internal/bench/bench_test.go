//go:build adcpgen_bench

package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/bench/gen/adcp"
	"github.com/adcpgen/adcpgen/internal/bench/gen/gojs"
	"github.com/adcpgen/adcpgen/internal/bench/gen/plain"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// fixture reads the 35.7 KB get_products response (12 products).
func fixture(b testing.TB) []byte {
	b.Helper()
	data, err := os.ReadFile(filepath.Join(testspec.Dir(b), "..", "bench", "get-products-response-3.0.26.json"))
	if err != nil {
		b.Fatalf("bench fixture: %v", err)
	}
	return data
}

// TestDecodersAgree checks, before anything is timed, that every decoder
// reads the fixture into its 12 products, and that ours re-encodes to an
// equal value. (Exact mode rejects the fixture: it carries a vendor's
// x_vendor_quality_score.)
func TestDecodersAgree(t *testing.T) {
	data := fixture(t)
	var ours adcp.GetProductsResponse
	if err := wire.Unmarshal(data, &ours); err != nil {
		t.Fatal(err)
	}
	var p plain.GetProductsResponse
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	var g gojs.GetProductsResponseJson
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(ours.Products) != 12 || len(p.Products) != 12 || len(g.Products) != 12 {
		t.Fatalf("products: ours %d, plain %d, go-jsonschema %d; want 12", len(ours.Products), len(p.Products), len(g.Products))
	}
	enc, err := wire.Marshal(&ours)
	if err != nil {
		t.Fatal(err)
	}
	var again adcp.GetProductsResponse
	if err := wire.Unmarshal(enc, &again); err != nil || !reflect.DeepEqual(ours, again) {
		t.Fatalf("round trip: %v", err)
	}
}

func run(b *testing.B, decode func(data []byte) error) {
	data := fixture(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetProducts runs every decoder on the fixture side by side.
func BenchmarkGetProducts(b *testing.B) {
	b.Run("json.Valid", func(b *testing.B) {
		run(b, func(data []byte) error {
			if !json.Valid(data) {
				b.Fatal("fixture is not JSON")
			}
			return nil
		})
	})
	b.Run("wire.Valid", func(b *testing.B) {
		run(b, wire.Valid)
	})
	b.Run("encoding-json-plain", func(b *testing.B) {
		run(b, func(data []byte) error {
			var v plain.GetProductsResponse
			return json.Unmarshal(data, &v)
		})
	})
	b.Run("wire.Unmarshal", func(b *testing.B) {
		run(b, func(data []byte) error {
			var v adcp.GetProductsResponse
			return wire.Unmarshal(data, &v)
		})
	})
	b.Run("go-jsonschema", func(b *testing.B) {
		run(b, func(data []byte) error {
			var v gojs.GetProductsResponseJson
			return json.Unmarshal(data, &v)
		})
	})
	b.Run("wire.Marshal", func(b *testing.B) {
		var v adcp.GetProductsResponse
		if err := wire.Unmarshal(fixture(b), &v); err != nil {
			b.Fatal(err)
		}
		run(b, func([]byte) error {
			_, err := wire.Marshal(&v)
			return err
		})
	})
	validator := func(b *testing.B, opts validate.Options) *validate.Schema {
		tree, err := spec.Open(filepath.Join(testspec.Dir(b), "protocol", "3.0.26.tgz"))
		if err != nil {
			b.Fatal(err)
		}
		v, err := validate.New(tree, opts)
		if err != nil {
			b.Fatal(err)
		}
		s, err := v.Schema("media-buy/get-products-response.json")
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	validateWith := func(b *testing.B, s *validate.Schema) func([]byte) error {
		return func(data []byte) error {
			issues, err := s.Validate(data)
			if err == nil && len(issues) > 0 {
				b.Fatalf("the fixture is invalid: %v", issues)
			}
			return err
		}
	}
	// validate is the fast path, validate-reference the reference
	// validator; wire.Unmarshal+validate is a strict decode and a full
	// validation of the same bytes, as a seller does.
	b.Run("validate", func(b *testing.B) {
		run(b, validateWith(b, validator(b, validate.Options{})))
	})
	b.Run("validate-reference", func(b *testing.B) {
		run(b, validateWith(b, validator(b, validate.Options{Reference: true})))
	})
	// The same, interleaved, reporting each share: a fair ratio on a
	// machine shared with other work.
	b.Run("decode-validate-interleaved", func(b *testing.B) {
		check := validateWith(b, validator(b, validate.Options{}))
		data := fixture(b)
		var td, tv time.Duration
		for b.Loop() {
			t0 := time.Now()
			var v adcp.GetProductsResponse
			if err := wire.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			if err := check(data); err != nil {
				b.Fatal(err)
			}
			td, tv = td+t1.Sub(t0), tv+time.Since(t1)
		}
		b.ReportMetric(float64(td.Nanoseconds())/float64(b.N), "decode-ns/op")
		b.ReportMetric(float64(tv.Nanoseconds())/float64(b.N), "validate-ns/op")
		b.ReportMetric(float64(td+tv)/float64(td), "(decode+validate)/decode")
	})
	b.Run("wire.Unmarshal+validate", func(b *testing.B) {
		check := validateWith(b, validator(b, validate.Options{}))
		run(b, func(data []byte) error {
			var v adcp.GetProductsResponse
			if err := wire.Unmarshal(data, &v); err != nil {
				return err
			}
			return check(data)
		})
	})
}
