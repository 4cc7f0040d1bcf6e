package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestHostedTagPolicies: a sync held to a product's enforced registry
// policies (the account's latest discovery) gets one CREATIVE_REJECTED
// entry per policy its hosted tag violates, each naming the policy; a
// clean tag is created and approved; a tag that cannot be read is not
// judged and waits in pending_review. The tags are served on loopback
// over TLS.
func TestHostedTagPolicies(t *testing.T) {
	tags := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/dual.js":
			_, _ = w.Write([]byte(`fetch("http://tracker.example/px.gif"); window.location.href = "https://landing.example/";`))
		case "/clean.js":
			_, _ = w.Write([]byte(`document.getElementById("ad").addEventListener("click", function () { window.location = "https://landing.example/"; });`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer tags.Close()
	base, a := startAgentOf(t, func(c *config) { c.Sandbox = true })
	a.sales.tags.client = tags.Client() // trusts the test server's certificate
	cs := mcpBuyer(t, base, testKey)
	seed := `{"scenario":"seed_product","params":{"product_id":"policy_backed","fixture":{"channels":["display"],"format_ids":[{"id":"display_300x250"}],` +
		`"enforced_policies":["creative_security_auto_redirect","creative_security_https_only"],` +
		`"pricing_options":[{"pricing_option_id":"p","pricing_model":"cpm","currency":"USD","fixed_price":5}]}}}`
	if r := call(t, cs, "comply_test_controller", seed); pick(r, "success") != "true" {
		t.Fatalf("seed: %s %+v", r.Data, r.Error)
	}
	if r := call(t, cs, "get_products", `{"buying_mode":"wholesale",`+acme+`}`); pick(r, "products", "0", "product_id") != "policy_backed" {
		t.Fatalf("get_products: %s %+v", r.Data, r.Error)
	}
	sync := func(key, id, url string) func(path ...string) string {
		r := call(t, cs, "sync_creatives", `{"adcp_version":"3.2-beta.5","idempotency_key":"tag-sync-00000000000`+key+`",`+acme+`,"creatives":[{"creative_id":"`+id+`","name":"Tag",`+
			`"format_kind":"display_tag","assets":{"tag_url":{"asset_type":"url","url_type":"tracker_script","url":"`+url+`"}}}]}`)
		if r.Error != nil {
			t.Fatalf("sync %s: %+v", id, r.Error)
		}
		return func(path ...string) string { return pick(r, append([]string{"creatives", "0"}, path...)...) }
	}
	dual := sync("1", "dual", tags.URL+"/dual.js")
	if dual("action") != "failed" || dual("errors", "2", "code") != "" {
		t.Fatalf("the dual violation: action %s, errors %s", dual("action"), dual("errors"))
	}
	got := map[string]bool{}
	for _, i := range []string{"0", "1"} {
		if dual("errors", i, "code") != "CREATIVE_REJECTED" || dual("errors", i, "field") != "creatives[0].assets.tag_url.url" {
			t.Errorf("entry %s: %s", i, dual("errors", i))
		}
		got[dual("errors", i, "details", "policy_id")] = true
	}
	if !got["creative_security_auto_redirect"] || !got["creative_security_https_only"] {
		t.Errorf("policies named: %v", got)
	}
	if clean := sync("2", "clean", tags.URL+"/clean.js"); clean("action") != "created" || clean("status") != "approved" {
		t.Errorf("the clean tag: %s %s %s", clean("action"), clean("status"), clean("errors"))
	}
	if gone := sync("3", "gone", tags.URL+"/gone.js"); gone("action") != "created" || gone("status") != "pending_review" {
		t.Errorf("an unreadable tag: %s %s", gone("action"), gone("status"))
	}
}

// TestTagViolations: what each scanned policy reads in a tag.
func TestTagViolations(t *testing.T) {
	tests := []struct {
		policy, url, body string
		violates          bool
	}{
		{policyAutoRedirect, "https://t.example/a.js", `top.location = "https://x.example/"`, true},
		{policyAutoRedirect, "https://t.example/a.js", `location.replace("https://x.example/")`, true},
		{policyAutoRedirect, "https://t.example/a.js", `el.onclick = function () { location.assign("https://x.example/") }`, false},
		{policyAutoRedirect, "https://t.example/a.js", `if (location.href == "x") {}`, false},
		{policyHTTPSOnly, "https://t.example/a.js", `new Image().src = 'http://px.example/1.gif'`, true},
		{policyHTTPSOnly, "http://t.example/a.js", `void 0`, true},
		{policyHTTPSOnly, "https://t.example/a.js", `fetch("https://px.example/1.gif")`, false},
		{"another_policy", "http://t.example/a.js", `location = "http://x.example/"`, false},
		// policy_backed_rejections' fixture tag (served from adcontextprotocol.org,
		// which a machine without the internet cannot fetch) redirects with
		// window.location.assign and fetches over http://.
		{policyAutoRedirect, "https://t.example/a.js", `window.location.assign("https://landing.example/");`, true},
		{policyHTTPSOnly, "https://t.example/a.js", `fetch('http://tracker.example/beacon');`, true},
	}
	for _, tt := range tests {
		if got := violation(tt.policy, tt.url, []byte(tt.body)) != ""; got != tt.violates {
			t.Errorf("%s %s %q: violates %v, want %v", tt.policy, tt.url, tt.body, got, tt.violates)
		}
	}
}
