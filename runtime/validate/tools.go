package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/registry"
)

// Direction says which side of a tool call a payload is.
type Direction int

const (
	Request Direction = iota + 1
	Response
)

func (d Direction) String() string {
	switch d {
	case Request:
		return "request"
	case Response:
		return "response"
	}
	return fmt.Sprintf("Direction(%d)", int(d))
}

// ErrUnknownTool is wrapped by errors for a tool the tree does not define.
var ErrUnknownTool = errors.New("unknown tool")

var toolName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// toolIndex maps tool names to their request and response schema paths.
type toolIndex struct {
	fromManifest bool
	tools        map[string][2]string // name -> {request, response} tree paths
}

// loadTools reads manifest.json when the tree has one (3.0.26 and later);
// otherwise it applies the naming convention
// <protocol>/<kebab(tool)>-request.json / -response.json over the tree.
func loadTools(fsys fs.FS) (*toolIndex, error) {
	data, err := fs.ReadFile(fsys, registry.ManifestName)
	if err == nil {
		m, err := registry.ParseManifest(data, registry.ManifestName)
		if err != nil {
			return nil, err
		}
		if len(m.Tools) > 0 {
			idx := &toolIndex{fromManifest: true, tools: map[string][2]string{}}
			for _, t := range m.Tools {
				idx.tools[t.Name] = [2]string{t.RequestSchema, t.ResponseSchema}
			}
			return idx, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", registry.ManifestName, err)
	}
	return conventionTools(fsys)
}

func conventionTools(fsys fs.FS) (*toolIndex, error) {
	found := map[string][]string{} // file base name -> tree paths
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if isSkipped(p) {
				return fs.SkipDir
			}
			return nil
		}
		base := path.Base(p)
		if strings.HasSuffix(base, "-request.json") || strings.HasSuffix(base, "-response.json") {
			found[base] = append(found[base], p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	idx := &toolIndex{tools: map[string][2]string{}}
	for base := range found {
		stem, ok := strings.CutSuffix(base, "-request.json")
		if !ok {
			continue
		}
		req := pickConvention(found[base])
		resp := pickConvention(found[stem+"-response.json"])
		if req == "" || resp == "" {
			continue
		}
		idx.tools[strings.ReplaceAll(stem, "-", "_")] = [2]string{req, resp}
	}
	return idx, nil
}

// pickConvention chooses among same-named files in several protocol
// folders. list_creative_formats exists under creative/ and media-buy/;
// the manifests of later versions name media-buy/, so it wins; otherwise
// the first path in order.
func pickConvention(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	sort.Strings(paths)
	for _, p := range paths {
		if strings.HasPrefix(p, "media-buy/") {
			return p
		}
	}
	return paths[0]
}

func (t *toolIndex) names() []string {
	out := make([]string, 0, len(t.tools))
	for n := range t.tools {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ToolSchemaPath returns the tree path of a tool's request or response schema.
func (v *Validator) ToolSchemaPath(tool string, dir Direction) (string, error) {
	if dir != Request && dir != Response {
		return "", fmt.Errorf("tool %s: direction must be Request or Response, got %v", tool, dir)
	}
	idx, err := v.toolIndex()
	if err != nil {
		return "", err
	}
	if !toolName.MatchString(tool) {
		return "", fmt.Errorf("%w %q: tool names are snake_case", ErrUnknownTool, tool)
	}
	paths, ok := idx.tools[tool]
	if !ok {
		source := "the naming convention"
		if idx.fromManifest {
			source = "manifest.json"
		}
		return "", fmt.Errorf("%w %q in spec %s (per %s)", ErrUnknownTool, tool, v.version, source)
	}
	if dir == Request {
		return paths[0], nil
	}
	return paths[1], nil
}

// Tools lists the tool names the tree defines.
func (v *Validator) Tools() ([]string, error) {
	idx, err := v.toolIndex()
	if err != nil {
		return nil, err
	}
	return idx.names(), nil
}

func (v *Validator) toolIndex() (*toolIndex, error) {
	v.toolsOnce.Do(func() { v.tools, v.toolsErr = loadTools(v.tree.FS) })
	if v.toolsErr != nil {
		return nil, fmt.Errorf("spec %s: tools: %w", v.tree.Source, v.toolsErr)
	}
	return v.tools, nil
}
