package discovery

import (
	"testing"
	"time"
)

// FuzzBrandJSON: reading brand.json and capabilities documents (agents[],
// authorized_operators[], identity.key_origins) never panics.
func FuzzBrandJSON(f *testing.F) {
	f.Add([]byte(`{"agents":[{"url":"https://a.example/mcp","jwks_uri":"https://k.example/j"}],"house":{"agents":[{"url":1}],"authorized_operators":[{"domain":"b.example","valid_from":"x"}]},"brands":[{"agents":[]}]}`))
	f.Add([]byte(`{"identity":{"brand_json_url":"https://b.example/.well-known/brand.json","key_origins":{"request_signing":"https://[::1"}},"request_signing":{"supported_for":["x"]},"webhook_signing":{"supported":true}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := strict(data)
		if err != nil {
			return
		}
		for _, e := range agentEntries(v) {
			_ = e.Get("url").StringIs("https://a.example/mcp")
		}
		_ = delegates(v, "b.example", time.Unix(1776520800, 0))
		_ = checkKeyOrigin(v, RequestSigning, "https://k.example/j")
		_ = checkKeyOrigin(v, WebhookSigning, "https://k.example/j")
	})
}
