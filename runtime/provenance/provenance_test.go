package provenance_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/provenance"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

const policy = `{"co_branding":"optional","landing_page":"any","templates_available":false,"provenance_required":true,` +
	`"provenance_requirements":{"require_digital_source_type":true,"require_disclosure_metadata":true},` +
	`"accepted_verifiers":[{"agent_url":"https://governance.verifier.example","feature_id":"markers_present"}]}`

// creative is an image creative whose provenance is prov ("" for none).
func creative(prov string) string {
	c := `{"creative_id":"c1","name":"C","format_id":{"agent_url":"https://creative.example","id":"display_300x250"},` +
		`"assets":{"image":{"asset_type":"image","url":"https://cdn.example/a.jpg","width":300,"height":250}}`
	if prov != "" {
		c += `,"provenance":` + prov
	}
	return c + `}`
}

const (
	disclosure = `"disclosure":{"required":true,"jurisdictions":[{"country":"US","region":"CA","regulation":"ca_sb_942","label_text":"Created with AI"}]}`
	dst        = `"digital_source_type":"trained_algorithmic_media","declared_by":{"role":"agency"}`
)

func verifier(url string) string {
	return `"embedded_provenance":[{"method":"provenance_markers","provider":"V","verify_agent":{"agent_url":"` + url + `","feature_id":"markers_present"}}]`
}

// TestCheck: the first unmet requirement, in the order a buyer corrects
// them, with its field; a creative that meets them all passes.
func TestCheck(t *testing.T) {
	tests := []struct {
		name, policy, creative string
		code, field            string // "" when accepted
	}{
		{"no provenance", policy, creative(""), "PROVENANCE_REQUIRED", "creatives[0].provenance"},
		{"no digital_source_type", policy, creative(`{"declared_by":{"role":"agency"},` + disclosure + `}`), "PROVENANCE_DIGITAL_SOURCE_TYPE_MISSING", "creatives[0].provenance.digital_source_type"},
		{"an off-list verifier", policy, creative(`{` + dst + `,` + disclosure + `,` + verifier("https://attacker.example") + `}`),
			"PROVENANCE_VERIFIER_NOT_ACCEPTED", "creatives[0].provenance.embedded_provenance[0].verify_agent.agent_url"},
		{"no disclosure", policy, creative(`{` + dst + `}`), "PROVENANCE_DISCLOSURE_MISSING", "creatives[0].provenance.disclosure"},
		{"complete", policy, creative(`{` + dst + `,` + disclosure + `,` + verifier("https://governance.verifier.example") + `}`), "", ""},
		{"an on-list verifier spelled otherwise", policy, creative(`{` + dst + `,` + disclosure + `,` + verifier("HTTPS://Governance.Verifier.example:443/") + `}`), "", ""},
		{"complete without a verifier", policy, creative(`{` + dst + `,` + disclosure + `}`), "", ""},
		{"the manifest's provenance", policy, `{"creative_id":"c1","manifest":{"provenance":{` + dst + `}}}`, "PROVENANCE_DISCLOSURE_MISSING", "creatives[0].manifest.provenance.disclosure"},
		{"an off-list watermark verifier", policy, creative(`{` + dst + `,` + disclosure + `,"watermarks":[{"provider":"W","verify_agent":{"agent_url":"https://other.example"}}]}`),
			"PROVENANCE_VERIFIER_NOT_ACCEPTED", "creatives[0].provenance.watermarks[0].verify_agent.agent_url"},
		{"embedded provenance required", `{"provenance_required":true,"provenance_requirements":{"require_embedded_provenance":true}}`, creative(`{` + dst + `}`),
			"PROVENANCE_EMBEDDED_MISSING", "creatives[0].provenance.embedded_provenance"},
		{"synthetic depiction required", `{"provenance_required":true,"provenance_requirements":{"require_synthetic_depiction":true}}`, creative(`{` + dst + `}`),
			"PROVENANCE_SYNTHETIC_DEPICTION_MISSING", "creatives[0].provenance.synthetic_depiction"},
		{"requirements without provenance_required are ignored", `{"provenance_requirements":{"require_disclosure_metadata":true}}`, creative(`{` + dst + `}`), "", ""},
		{"no policy", `{"co_branding":"optional","landing_page":"any","templates_available":false}`, creative(""), "", ""},
		{"an allowlist alone", `{"accepted_verifiers":[{"agent_url":"https://governance.verifier.example"}]}`, creative(`{` + verifier("https://attacker.example") + `}`),
			"PROVENANCE_VERIFIER_NOT_ACCEPTED", "creatives[0].provenance.embedded_provenance[0].verify_agent.agent_url"},
	}
	for _, tt := range tests {
		e := provenance.Enforce(json.RawMessage(tt.policy), json.RawMessage(tt.creative), "creatives[0]")
		switch {
		case tt.code == "" && e != nil:
			t.Errorf("%s: refused: %v", tt.name, e)
		case tt.code != "" && (e == nil || e.Code != tt.code || e.Field != tt.field || e.Recovery != "correctable"):
			t.Errorf("%s: got %+v, want %s at %s", tt.name, e, tt.code, tt.field)
		}
	}
	if !provenance.Applies(json.RawMessage(policy)) || provenance.Applies(json.RawMessage(`{"co_branding":"optional"}`)) {
		t.Error("Applies")
	}
}

// TestSchemas: the policy is a valid creative_policy, the creatives
// valid creative assets, and every code Check answers is in the
// error-code enum, in every release that publishes provenance
// requirements (3.1 and later).
func TestSchemas(t *testing.T) {
	codes := []string{"PROVENANCE_REQUIRED", "PROVENANCE_DIGITAL_SOURCE_TYPE_MISSING", "PROVENANCE_VERIFIER_NOT_ACCEPTED",
		"PROVENANCE_DISCLOSURE_MISSING", "PROVENANCE_EMBEDDED_MISSING"}
	for _, v := range specseller.Versions {
		if strings.HasPrefix(v.Version, "3.0.") {
			continue
		}
		tree, _ := specseller.Open(t, v.Version)
		val, err := validate.New(tree, validate.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if issues, err := val.Validate("core/creative-policy.json", []byte(policy)); err != nil || len(issues) > 0 {
			t.Errorf("%s: the policy: %v %v", v.Version, issues, err)
		}
		for _, c := range []string{creative(`{` + dst + `,` + disclosure + `,` + verifier("https://governance.verifier.example") + `}`)} {
			if issues, err := val.Validate("core/creative-asset.json", []byte(c)); err != nil || len(issues) > 0 {
				t.Errorf("%s: %s: %v %v", v.Version, c, issues, err)
			}
		}
		for _, code := range codes {
			if issues, err := val.Validate("enums/error-code.json", []byte(`"`+code+`"`)); err != nil || len(issues) > 0 {
				t.Errorf("%s: %s: %v %v", v.Version, code, issues, err)
			}
		}
	}
}
