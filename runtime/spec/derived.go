package spec

import "strings"

// derivedDirs are the folders of a published schema tree that hold copies
// or projections of its canonical schemas, never schemas of their own:
// bundled/ (pre-dereferenced copies, in bundles), mcp/ (from 3.2, draft
// 2020-12 projections of each tool's request and response for MCP's
// tools/list, see mcp/manifest.json) and core/async-response-refs/ (3.1
// and 3.2 betas: copies reusing the originals' $ids).
var derivedDirs = []string{"bundled", "mcp", "core/async-response-refs"}

// DerivedDir reports whether p, a slash-separated path relative to a
// tree's root, is one of the tree's derived folders or lies inside one.
// Code generation and validation read only the canonical schemas; a
// reference into a derived copy resolves through its $id to the original.
func DerivedDir(p string) (dir string, ok bool) {
	for _, d := range derivedDirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return d, true
		}
	}
	return "", false
}
