package examples

import (
	"io/fs"

	"github.com/adcpgen/adcpgen/runtime/spec"
)

// OpenEmbedded is docs/generating.md's tree-only version: the schema tree
// a module embeds with //go:embed all:specdata, opened for the seller's
// validation.
func OpenEmbedded(specdata fs.FS) (*spec.Tree, error) {
	// snippet: embed
	sub, err := fs.Sub(specdata, "specdata")
	if err != nil {
		return nil, err
	}
	tree, err := spec.OpenFS(sub, "specdata", spec.KindEmbedded) // tree.Version is adcp.SpecVersion
	// end snippet
	return tree, err
}
