package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// projectionRoot is the folder of a schema tree that holds, from AdCP 3.2,
// one self-contained projection per MCP protocol version
// (mcp/<date>/manifest.json, which names each tool's inputSchema and
// outputSchema files relative to its folder).
const projectionRoot = "mcp"

// projection is the MCP projection a tree ships: the tools its manifest
// covers, with their schema files as tree paths.
type projection struct {
	dir   string // "mcp/2026-07-28"
	tools map[string]projectedTool
}

type projectedTool struct {
	input, output string // tree paths
}

// loadProjection reads the tree's newest MCP projection (the greatest
// mcp/<date>/ folder holding a manifest.json); nil when the tree ships none.
func loadProjection(tree *spec.Tree) (*projection, error) {
	entries, err := fs.ReadDir(tree.FS, projectionRoot)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", tree.Source, projectionRoot, err)
	}
	var dates []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(tree.FS, path.Join(projectionRoot, e.Name(), "manifest.json")); err == nil {
			dates = append(dates, e.Name())
		}
	}
	if len(dates) == 0 {
		return nil, nil
	}
	sort.Strings(dates)
	dir := path.Join(projectionRoot, dates[len(dates)-1])
	name := path.Join(dir, "manifest.json")
	data, err := fs.ReadFile(tree.FS, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", tree.Source, name, err)
	}
	var raw struct {
		Tools map[string]struct {
			Input  string `json:"inputSchema"`
			Output string `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", tree.Source, name, err)
	}
	p := &projection{dir: dir, tools: map[string]projectedTool{}}
	for tool, t := range raw.Tools {
		ptr := name + "#/tools" + wire.PointerToken(tool)
		var pt projectedTool
		for _, f := range []struct {
			rel string
			out *string
			key string
		}{{t.Input, &pt.input, "inputSchema"}, {t.Output, &pt.output, "outputSchema"}} {
			if f.rel == "" {
				continue
			}
			p := path.Join(dir, f.rel)
			if !fs.ValidPath(p) || p == dir || !inside(p, dir) {
				return nil, fmt.Errorf("%s: %s/%s: %q is not a file of %s", tree.Source, ptr, f.key, f.rel, dir)
			}
			*f.out = p
		}
		p.tools[tool] = pt
	}
	return p, nil
}

// tool returns the projection of a tool; false when p is nil or does not
// cover it.
func (p *projection) tool(name string) (projectedTool, bool) {
	if p == nil {
		return projectedTool{}, false
	}
	t, ok := p.tools[name]
	return t, ok
}

// inside reports whether the clean path p lies under dir.
func inside(p, dir string) bool {
	return len(p) > len(dir) && p[:len(dir)] == dir && p[len(dir)] == '/'
}

// schemaFile reads a projected schema, compacted. An input schema must be
// an object schema of "type": "object", as MCP requires of inputSchema.
func schemaFile(tree *spec.Tree, file string, input bool) (json.RawMessage, error) {
	data, err := fs.ReadFile(tree.FS, file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var head struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(buf.Bytes(), &head); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object schema: %w", file, err)
	}
	if input && head.Type != "object" {
		return nil, fmt.Errorf("%s: /type: an input schema must have \"type\": \"object\", not %v", file, head.Type)
	}
	return buf.Bytes(), nil
}
