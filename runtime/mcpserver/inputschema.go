package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// minimalInputSchema is what many AdCP sellers publish: any object.
var minimalInputSchema = json.RawMessage(`{"type":"object"}`)

// bundleSchema returns the schema at path in tree as one document that
// stands alone: every schema it references, transitively, is copied under
// "definitions" (keyed by its tree path, "core.brand-ref" for
// core/brand-ref.json) without its $id, and every $ref is rewritten to a
// local "#/definitions/..." pointer, so a client resolves everything
// without fetching. The result is a JSON object with "type": "object".
func bundleSchema(tree *spec.Tree, path string) (json.RawMessage, error) {
	b := &bundler{tree: tree, root: path, docs: map[string]any{}}
	root, err := b.load(path)
	if err != nil {
		return nil, err
	}
	for len(b.queue) > 0 {
		p := b.queue[0]
		b.queue = b.queue[1:]
		if err := b.rewrite(b.docs[p], p); err != nil {
			return nil, err
		}
	}
	obj, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a JSON object", path)
	}
	delete(obj, "$id")
	if len(b.order) > 1 {
		defs, _ := obj["definitions"].(map[string]any)
		if defs == nil {
			defs = map[string]any{}
		}
		for _, p := range b.order[1:] {
			d := b.docs[p]
			if m, ok := d.(map[string]any); ok {
				delete(m, "$id")
				delete(m, "$schema")
			}
			defs[defKey(p)] = d
		}
		obj["definitions"] = defs
	}
	if _, ok := obj["type"]; !ok {
		obj["type"] = "object"
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

type bundler struct {
	tree  *spec.Tree
	root  string
	docs  map[string]any
	order []string // load order, root first
	queue []string // loaded, refs not yet rewritten
}

func (b *bundler) load(path string) (any, error) {
	if d, ok := b.docs[path]; ok {
		return d, nil
	}
	data, err := fs.ReadFile(b.tree.FS, path)
	if err != nil {
		return nil, fmt.Errorf("bundling %s: %w", b.root, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var d any
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("bundling %s: %s: %w", b.root, path, err)
	}
	b.docs[path] = d
	b.order = append(b.order, path)
	b.queue = append(b.queue, path)
	return d, nil
}

// rewrite points every $ref in v, a part of the document at path, into the
// bundle, loading the documents they name.
func (b *bundler) rewrite(v any, path string) error {
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok {
			local, err := b.localRef(ref, path)
			if err != nil {
				return err
			}
			x["$ref"] = local
		}
		for k, e := range x {
			if k == "$ref" {
				continue
			}
			if err := b.rewrite(e, path); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := b.rewrite(e, path); err != nil {
				return err
			}
		}
	}
	return nil
}

// localRef is ref, found in the document at path, as a pointer into the
// bundle.
func (b *bundler) localRef(ref, path string) (string, error) {
	target, pointer := path, ""
	if strings.HasPrefix(ref, "#") {
		pointer = ref[1:]
	} else {
		key := registry.SchemaKey(ref)
		target, pointer, _ = strings.Cut(key, "#")
		if _, err := b.load(target); err != nil {
			return "", err
		}
	}
	if target == b.root {
		return "#" + pointer, nil
	}
	return "#/definitions/" + defKey(target) + pointer, nil
}

// defKey names a bundled document: its tree path with "/" as "." and
// without ".json" (a JSON pointer token needs no escaping then).
func defKey(path string) string {
	return strings.ReplaceAll(strings.TrimSuffix(path, ".json"), "/", ".")
}
