package validate

import (
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// BenchmarkValidateGetProducts validates the 35.7 KB, 12-product fixture
// (bytes in, issues out) with an already compiled schema: the fast path,
// the reference validator, and both interleaved with their ratio (the
// machine may be shared: interleaving keeps the ratio fair).
func BenchmarkValidateGetProducts(b *testing.B) {
	fast := getProductsSchema(b, Options{})
	ref := getProductsSchema(b, Options{Reference: true})
	data := benchFixture(b)
	run := func(s *Schema) func(b *testing.B) {
		return func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				is, err := s.Validate(data)
				if err != nil || len(is) != 0 {
					b.Fatalf("issues %v, err %v", is, err)
				}
			}
		}
	}
	b.Run("fast", run(fast))
	b.Run("reference", run(ref))
	b.Run("ratio", func(b *testing.B) {
		var tf, tr time.Duration
		for b.Loop() {
			t0 := time.Now()
			_, _ = fast.Validate(data)
			t1 := time.Now()
			_, _ = ref.Validate(data)
			tf, tr = tf+t1.Sub(t0), tr+time.Since(t1)
		}
		n := float64(b.N)
		b.ReportMetric(float64(tf.Nanoseconds())/n, "fast-ns/op")
		b.ReportMetric(float64(tr.Nanoseconds())/n, "reference-ns/op")
		b.ReportMetric(float64(tr)/float64(tf), "reference/fast")
	})
}

func getProductsSchema(b *testing.B, opts Options) *Schema {
	v, err := New(versionValidator(b, "3.0.26").tree, opts)
	if err != nil {
		b.Fatal(err)
	}
	s, err := v.Tool("get_products", Response)
	if err != nil {
		b.Fatal(err)
	}
	if ok, err := s.FastPath(); ok == opts.Reference {
		b.Fatalf("fast path %v (%v) with %+v", ok, err, opts)
	}
	return s
}

// BenchmarkValidateGetProductsDecoded leaves JSON decoding out: the share
// of the schema walk itself.
func BenchmarkValidateGetProductsDecoded(b *testing.B) {
	v := versionValidator(b, "3.0.26")
	s, err := v.Tool("get_products", Response)
	if err != nil {
		b.Fatal(err)
	}
	doc := decodeJSON(b, benchFixture(b))
	b.ReportAllocs()
	for b.Loop() {
		if is, err := s.ValidateValue(doc); err != nil || len(is) != 0 {
			b.Fatalf("issues %v, err %v", is, err)
		}
	}
}

// BenchmarkCompileGetProducts is the one-off cost of the first use of a
// tool: opening nothing, compiling get_products' response and its refs.
func BenchmarkCompileGetProducts(b *testing.B) {
	tree, err := spec.Open(testspec.Path(b, "protocol", "3.0.26.tgz"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		v, err := New(tree, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := v.Tool("get_products", Response); err != nil {
			b.Fatal(err)
		}
	}
}
