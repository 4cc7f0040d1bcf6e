// Package specseller opens a published spec version for tests of the
// seller's framework pieces (runtime/testcontroller, runtime/sellergov,
// ...) that work without generated types: the version's schema tree and a
// registry.Spec read from its manifest (tools with their schemas and
// protocol, error codes and their recovery classes). Nothing generated
// from the spec is committed or needed.
package specseller

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
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

// Endpoint is one endpoint serving every version of Versions, each by a
// seller of its own (the first the default, the others joined with
// AddRelease), validating every request and response against its
// version's schemas: get_adcp_capabilities, and list_accounts answered by
// a raw handler with no accounts (an error when the request has "fail").
// opts is each server's, with Schemas and ValidateResponses set here.
func Endpoint(t testing.TB, opts seller.Options) *seller.Server {
	t.Helper()
	var def *seller.Server
	for _, v := range Versions {
		tree, sp := Open(t, v.Version)
		o := opts
		o.Schemas, o.ValidateResponses = tree, true
		if o.Capabilities == nil {
			o.Capabilities = json.RawMessage(`{"supported_protocols":["media_buy"],"account":{"supported_billing":["operator"]},"media_buy":{"supported_pricing_models":["cpm"]},"adcp":{"idempotency":{"supported":false}}}`)
		}
		srv, err := seller.New(sp, o)
		if err != nil {
			t.Fatal(err)
		}
		tool, _ := sp.Tool("list_accounts")
		srv.HandleRaw(seller.RawTool{Name: tool.Name, RequestSchema: tool.RequestSchema, ResponseSchema: tool.ResponseSchema,
			Handler: func(_ context.Context, c *seller.Call) *seller.Answer {
				if c.Member("fail") != nil {
					return seller.ErrorAnswer(&adcperr.Error{Code: "ACCOUNT_NOT_FOUND", Message: "No such account"})
				}
				return &seller.Answer{Body: json.RawMessage(`{"accounts":[]}`)}
			}})
		if def == nil {
			def = srv
		} else if err := def.AddRelease(srv); err != nil {
			t.Fatal(err)
		}
	}
	return def
}
