package extract_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/extract"
)

// benchPayload is the published get_products response fixture.
func benchPayload(b *testing.B) []byte {
	data, err := os.ReadFile(filepath.Join(testspec.Dir(b), "..", "bench", "get-products-response-3.0.26.json"))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func benchExtract(b *testing.B, envelope []byte, run func([]byte) *extract.Result) {
	b.SetBytes(int64(len(envelope)))
	b.ReportAllocs()
	for b.Loop() {
		if r := run(envelope); r.Data == nil {
			b.Fatal("no data")
		}
	}
}

func BenchmarkExtractMCPStructured(b *testing.B) {
	p := benchPayload(b)
	env := []byte(`{"content":[{"type":"text","text":"Found products."}],"structuredContent":` + string(p) + `}`)
	benchExtract(b, env, testExtractor().MCP)
}

func BenchmarkExtractMCPTextFallback(b *testing.B) {
	p := benchPayload(b)
	text, _ := json.Marshal(string(p))
	env := []byte(`{"content":[{"type":"text","text":"Found products."},{"type":"text","text":` + string(text) + `}]}`)
	benchExtract(b, env, testExtractor().MCP)
}

func BenchmarkExtractA2A(b *testing.B) {
	p := benchPayload(b)
	env := []byte(`{"task":{"id":"t","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"result","parts":[{"text":"Found products."},{"data":` + string(p) + `}]}]}}`)
	benchExtract(b, env, testExtractor().A2A)
}

func BenchmarkExtractMCPError(b *testing.B) {
	env := []byte(`{"content":[{"type":"text","text":"Rate limited."}],"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","message":"Request rate exceeded","retry_after":5,"recovery":"transient","details":{"limit":100,"remaining":0,"window_seconds":60,"scope":"account"}}}}`)
	x := testExtractor()
	b.SetBytes(int64(len(env)))
	b.ReportAllocs()
	for b.Loop() {
		if r := x.MCP(env); r.Error == nil {
			b.Fatal("no error")
		}
	}
}
