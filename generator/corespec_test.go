package generator

import (
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// The committed core package knows every standard code: its Spec gives each
// code of the published manifests the class the newest of them gives it,
// and marks deprecated what the newest marks deprecated. Unlisted codes
// stay terminal: the core sets no unknown-code policy.
func TestCoreSpecKnowsEveryPublishedCode(t *testing.T) {
	core := adcp.Spec()
	if core.UnknownRecovery() != "" {
		t.Errorf("core unknown recovery %q; unlisted codes must stay terminal", core.UnknownRecovery())
	}
	union := map[string]registry.ErrorCode{}
	for _, source := range []string{"protocol/3.0.26.tgz", "schemas/3.1.19", "schemas/3.2.0-beta.3", "schemas/3.2.0-beta.5"} { // oldest first
		tree := openCorpus(t, source)
		m, err := registry.LoadManifest(tree.FS, source)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range m.Codes {
			union[c.Code] = c
		}
		if source != "schemas/3.2.0-beta.5" {
			continue
		}
		// Every code of the newest manifest is classified as it says.
		for _, c := range m.Codes {
			if got, ok := core.Recovery(c.Code); !ok || got != c.Recovery {
				t.Errorf("%s: core says %q (%v), %s says %s", c.Code, got, ok, source, c.Recovery)
			}
		}
	}
	codes := core.Codes()
	if len(codes) != len(union) {
		t.Errorf("core lists %d codes, the manifests %d", len(codes), len(union))
	}
	for _, c := range codes {
		want, ok := union[c.Code]
		if !ok {
			t.Errorf("%s: in the core, in no manifest", c.Code)
			continue
		}
		if c.Recovery != want.Recovery || c.Deprecated != want.Deprecated {
			t.Errorf("%s: core %s deprecated=%v, newest manifest %s deprecated=%v", c.Code, c.Recovery, c.Deprecated, want.Recovery, want.Deprecated)
		}
	}
}
