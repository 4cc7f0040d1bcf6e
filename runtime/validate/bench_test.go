package validate

import (
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// BenchmarkValidateGetProducts validates the 35.7 KB, 12-product fixture
// (bytes in, issues out) with an already compiled schema.
func BenchmarkValidateGetProducts(b *testing.B) {
	v := versionValidator(b, "3.0.26")
	s, err := v.Tool("get_products", Response)
	if err != nil {
		b.Fatal(err)
	}
	data := benchFixture(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		is, err := s.Validate(data)
		if err != nil || len(is) != 0 {
			b.Fatalf("issues %v, err %v", is, err)
		}
	}
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
