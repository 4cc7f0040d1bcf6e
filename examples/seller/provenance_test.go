package main

import (
	"strings"
	"testing"
)

// TestProvenancePolicy: a sync is held to the provenance policy of the
// products the account discovered last, whichever release it speaks: the
// first unmet requirement fails the creative (nothing of it kept), a
// creative that meets them is created, and a discovery that returns no
// such product lifts the policy. A creative that meets a policy but sends
// a verifier off its allowlist is refused before anything is called.
func TestProvenancePolicy(t *testing.T) {
	base, _ := startAgentOf(t, func(c *config) { c.Sandbox = true })
	cs := mcpBuyer(t, base, testKey)
	seed := func(id, policy string) {
		t.Helper()
		args := `{"scenario":"seed_product","params":{"product_id":"` + id + `","fixture":{"channels":["display"],"format_ids":[{"id":"display_300x250"}],` +
			`"pricing_options":[{"pricing_option_id":"p","pricing_model":"cpm","currency":"USD","fixed_price":5}]` + policy + `}}}`
		if r := call(t, cs, "comply_test_controller", args); r.Error != nil || pick(r, "success") != "true" {
			t.Fatalf("seed %s: %s %+v", id, r.Data, r.Error)
		}
	}
	discover := func(want string) {
		t.Helper()
		if r := call(t, cs, "get_products", `{"buying_mode":"wholesale",`+acme+`}`); pick(r, "products", "0", "product_id") != want {
			t.Fatalf("get_products: %s %+v, want %s first", r.Data, r.Error, want)
		}
	}
	sync := func(version, id, provenance string) (action, code, field string) {
		t.Helper()
		c := `{"creative_id":"` + id + `","name":"C","format_id":{"agent_url":"` + base + `","id":"display_300x250"},` +
			`"assets":{"image":{"asset_type":"image","url":"https://cdn.example/a.jpg","width":300,"height":250}}`
		if provenance != "" {
			c += `,"provenance":` + provenance
		}
		r := call(t, cs, "sync_creatives", `{`+version+`"idempotency_key":"prov-`+strings.Repeat("0", 12)+id+`",`+acme+`,"creatives":[`+c+`}]}`)
		if r.Error != nil {
			t.Fatalf("sync_creatives %s: %+v", id, r.Error)
		}
		return pick(r, "creatives", "0", "action"), pick(r, "creatives", "0", "errors", "0", "code"), pick(r, "creatives", "0", "errors", "0", "field")
	}
	seed("prov_required", `,"creative_policy":{"co_branding":"optional","landing_page":"any","templates_available":false,"provenance_required":true,`+
		`"provenance_requirements":{"require_digital_source_type":true,"require_disclosure_metadata":true},`+
		`"accepted_verifiers":[{"agent_url":"https://governance.verifier.example"}]}`)
	discover("prov_required")
	const dst = `"digital_source_type":"trained_algorithmic_media"`
	const disclosure = `"disclosure":{"required":true,"jurisdictions":[{"country":"US","regulation":"ca_sb_942","label_text":"Created with AI"}]}`
	tests := []struct {
		name, version, id, provenance string
		action, code, field           string
	}{
		{"no provenance (3.0)", "", "p_none_30", "", "failed", "PROVENANCE_REQUIRED", "creatives[0].provenance"},
		{"no provenance (3.1)", `"adcp_version":"3.1",`, "p_none_31", "", "failed", "PROVENANCE_REQUIRED", "creatives[0].provenance"},
		{"no digital_source_type", "", "p_no_dst", `{` + disclosure + `}`, "failed", "PROVENANCE_DIGITAL_SOURCE_TYPE_MISSING", "creatives[0].provenance.digital_source_type"},
		{"an off-list verifier", "", "p_off_list", `{` + dst + `,` + disclosure + `,"embedded_provenance":[{"method":"provenance_markers","provider":"X","verify_agent":{"agent_url":"https://attacker.example"}}]}`,
			"failed", "PROVENANCE_VERIFIER_NOT_ACCEPTED", "creatives[0].provenance.embedded_provenance[0].verify_agent.agent_url"},
		{"no disclosure", "", "p_no_disclosure", `{` + dst + `}`, "failed", "PROVENANCE_DISCLOSURE_MISSING", "creatives[0].provenance.disclosure"},
		{"complete", "", "p_complete", `{` + dst + `,` + disclosure + `}`, "created", "", ""},
	}
	for _, tt := range tests {
		action, code, field := sync(tt.version, tt.id, tt.provenance)
		if action != tt.action || code != tt.code || field != tt.field {
			t.Errorf("%s: %s %s %s, want %s %s %s", tt.name, action, code, field, tt.action, tt.code, tt.field)
		}
	}
	if r := call(t, cs, "list_creatives", `{"filters":{"creative_ids":["p_none_30","p_complete"]},`+acme+`}`); pick(r, "query_summary", "total_matching") != "1" {
		t.Errorf("a refused creative was kept: %s", r.Data)
	}
	// A later discovery without the policy lifts it.
	seed("no_policy", "")
	discover("no_policy")
	if action, code, _ := sync("", "p_after", ""); action != "created" {
		t.Errorf("after a discovery of products without the policy: %s %s", action, code)
	}
}
