package extract_test

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// foundingCodes are the codes and classes of AdCP's founding transport
// error mapping, plus AUTH_MISSING, the successor of AUTH_REQUIRED: the
// table the edge-case tests classify with.
var foundingCodes = map[string]registry.Recovery{
	"RATE_LIMITED": registry.Transient, "SERVICE_UNAVAILABLE": registry.Transient, "CONFLICT": registry.Transient,
	"INVALID_REQUEST": registry.Correctable, "AUTH_REQUIRED": registry.Correctable, "AUTH_MISSING": registry.Correctable,
	"POLICY_VIOLATION": registry.Correctable, "PRODUCT_NOT_FOUND": registry.Correctable, "PRODUCT_UNAVAILABLE": registry.Correctable,
	"PROPOSAL_EXPIRED": registry.Correctable, "BUDGET_TOO_LOW": registry.Correctable, "CREATIVE_REJECTED": registry.Correctable,
	"UNSUPPORTED_FEATURE": registry.Correctable, "AUDIENCE_TOO_SMALL": registry.Correctable, "ACCOUNT_SETUP_REQUIRED": registry.Correctable,
	"ACCOUNT_AMBIGUOUS": registry.Correctable, "COMPLIANCE_UNSATISFIED": registry.Correctable,
	"ACCOUNT_NOT_FOUND": registry.Terminal, "ACCOUNT_PAYMENT_REQUIRED": registry.Terminal, "ACCOUNT_SUSPENDED": registry.Terminal,
	"BUDGET_EXHAUSTED": registry.Terminal,
}

// foundingSpec is a spec listing foundingCodes, with details types from
// newDetails (nil: none) and the unknown-code policy unknown.
func foundingSpec(newDetails func(string) wire.Value, unknown registry.Recovery) *registry.Spec {
	var codes registry.ErrorCodes
	for c, r := range foundingCodes {
		codes = append(codes, registry.ErrorCode{Code: c, Recovery: r})
	}
	return registry.NewSpec(registry.SpecConfig{Version: "test", Codes: codes, NewDetails: newDetails, UnknownRecovery: unknown})
}

// testExtractor classifies with foundingCodes.
func testExtractor(opts ...extract.Option) *extract.Extractor {
	return extract.New(foundingSpec(nil, registry.Transient), opts...)
}

// manifestSources are the spec trees whose manifests the vectors' code
// table is built from: every published version that has a manifest.
var manifestSources = []string{"protocol/3.0.26.tgz", "schemas/3.1.19", "schemas/3.2.0-beta.3"}

var manifests struct {
	once sync.Once
	list []*registry.Manifest
	err  error
}

// publishedManifests parses the manifests of manifestSources.
func publishedManifests(t testing.TB) []*registry.Manifest {
	t.Helper()
	dir := testspec.Dir(t)
	manifests.once.Do(func() {
		for _, src := range manifestSources {
			tree, err := spec.Open(filepath.Join(dir, src))
			if err != nil {
				manifests.err = err
				return
			}
			m, err := registry.LoadManifest(tree.FS, src)
			if err != nil {
				manifests.err = err
				return
			}
			manifests.list = append(manifests.list, m)
		}
	})
	if manifests.err != nil {
		t.Fatal(manifests.err)
	}
	return manifests.list
}

// vectorExtractor is the default buyer: the core package's spec, which
// lists every standard code, with no options.
func vectorExtractor(t testing.TB) *extract.Extractor { return extract.New(adcp.Spec()) }
