// Package sellertest holds what the seller's tests share: a small AdCP
// schema tree of this project's own (schemas/, version 3.90.0-test, with a
// manifest: get_adcp_capabilities, get_products with every interim payload,
// create_media_buy with a oneOf response and idempotency required,
// list_creatives, fourteen error codes) and the package adcpgen generates
// from it (generated/adcpt, committed and public, so that the runtime's
// examples import it; TestGoldenUpToDate regenerates it).
//
// Regenerate after a generator change:
//
//	go test ./internal/sellertest -run TestGoldenUpToDate -update
package sellertest

import (
	"embed"
	"io/fs"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/spec"
)

//go:embed schemas
var schemas embed.FS

// Tree opens the test schema tree.
func Tree(t testing.TB) *spec.Tree {
	t.Helper()
	tree, err := OpenTree()
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// OpenTree opens the test schema tree, for code without a testing.TB (a
// child process a test starts).
func OpenTree() (*spec.Tree, error) {
	sub, err := fs.Sub(schemas, "schemas")
	if err != nil {
		return nil, err
	}
	return spec.OpenFS(sub, "sellertest/schemas", spec.KindEmbedded)
}
