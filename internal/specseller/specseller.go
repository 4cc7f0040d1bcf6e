// Package specseller opens a published spec version for tests of the
// seller's framework pieces (runtime/testcontroller, runtime/sellergov,
// ...) that work without generated types: the version's schema tree and a
// registry.Spec read from its manifest (tools with their schemas and
// protocol, error codes and their recovery classes). Nothing generated
// from the spec is committed or needed.
package specseller

import (
	"path/filepath"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// Versions are the published versions whose manifests list the seller's
// tools, with their sources relative to the spec directory.
var Versions = []struct{ Version, Source string }{
	{"3.0.26", "protocol/3.0.26.tgz"},
	{"3.1.19", "schemas/3.1.19"},
	{"3.2.0-beta.5", "schemas/3.2.0-beta.5"},
}

// Open returns the tree of a version in Versions and the Spec its manifest
// describes; it skips (fails under ADCP_REQUIRE_SPEC=1) without the
// published spec.
func Open(t testing.TB, version string) (*spec.Tree, *registry.Spec) {
	t.Helper()
	for _, v := range Versions {
		if v.Version != version {
			continue
		}
		tree, err := spec.Open(testspec.Path(t, filepath.FromSlash(v.Source)))
		if err != nil {
			t.Fatal(err)
		}
		m, err := registry.LoadManifest(tree.FS, v.Source)
		if err != nil {
			t.Fatal(err)
		}
		tools := make([]registry.Tool, 0, len(m.Tools))
		for _, mt := range m.Tools {
			tools = append(tools, registry.Tool{Name: mt.Name, Protocol: mt.Protocol, Mutating: mt.Mutating,
				IdempotencyRequired: mt.IdempotencyRequired, Deprecated: mt.Deprecated, Summary: mt.Summary,
				RequestSchema: mt.RequestSchema, ResponseSchema: mt.ResponseSchema})
		}
		return tree, registry.NewSpec(registry.SpecConfig{Version: m.Version, Tools: tools, Codes: m.CodeTable(), UnknownRecovery: m.UnknownRecovery})
	}
	t.Fatalf("specseller: no version %q", version)
	return nil, nil
}
