package generator

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// Previous is what an earlier generation of a package declared, read back
// from its files: the name of the type generated for each schema (its
// "// Schema:" line) and the package's other names. Generating with it
// (Options.Previous) keeps those names, so regenerating into a directory
// renames nothing whose schema is still there, whatever the policy would
// name it on its own.
type Previous struct {
	types   map[string]string // schema key ("core/error.json#/properties/x") -> type name
	digests map[string]string // schema key -> the schema's digest, where recorded
	texts   map[string]string // schema key -> the digest of its whole text, where recorded apart
	helpers map[string]bool   // constants, functions, other types
	// arms are the fields of each union (by schema key): an arm's label
	// and Go type.
	arms map[string][]naming.Arm
}

// Types is how many schema types the previous generation named.
func (p *Previous) Types() int {
	if p == nil {
		return 0
	}
	return len(p.types)
}

// Name is the type name the package gave a schema, named by tree path and
// pointer ("media-buy/get-products-response.json") or $id in either
// published style; "" when it has none.
func (p *Previous) Name(schema string) string {
	if p == nil {
		return ""
	}
	return p.types[registry.SchemaKey(schema)]
}

// keep is what the naming pass keeps of p.
func (p *Previous) keep() naming.Keep {
	if p == nil {
		return naming.Keep{}
	}
	return naming.Keep{Types: p.types, Digests: p.digests, TextDigests: p.texts, Helpers: p.helpers, Arms: p.arms}
}

// ReadPrevious reads the package adcpgen generated in dir (and the half of
// its types an earlier adcpgen wrote in legacySplitDir); nil, nil when dir
// holds none. Only files adcpgen wrote are read (see WriteDir).
func ReadPrevious(dir string) (*Previous, error) {
	var files []File
	for _, sub := range []string{"", legacySplitDir} {
		d := filepath.Join(dir, filepath.FromSlash(sub))
		entries, err := os.ReadDir(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading the previous generation in %s: %w", d, err)
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), "_gen.go") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(d, e.Name()))
			if err != nil {
				return nil, fmt.Errorf("reading the previous generation: %w", err)
			}
			if bytes.HasPrefix(data, []byte(headerLine+"\n")) {
				files = append(files, File{Name: e.Name(), Data: data})
			}
		}
	}
	if len(files) == 0 {
		return nil, nil
	}
	return PreviousOf(files), nil
}

// PreviousOf reads the names generated files declare (Result.Files of an
// earlier run). Files that are not generated Go are skipped.
func PreviousOf(files []File) *Previous {
	p := &Previous{types: map[string]string{}, digests: map[string]string{}, texts: map[string]string{},
		helpers: map[string]bool{}, arms: map[string][]naming.Arm{}}
	twice := map[string]bool{}
	unions := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f.Name, ".go") {
			p.scan(f.Data, twice, unions)
		}
	}
	// Only a union's fields are arms.
	for key := range p.arms {
		if !unions[p.types[key]] {
			delete(p.arms, key)
		}
	}
	// A schema two types were generated from (a package an earlier adcpgen
	// split re-exports the other half's by alias: the same name; an adcpgen
	// before one type per schema: two names) names neither.
	for key := range twice {
		delete(p.types, key)
		delete(p.digests, key)
		delete(p.texts, key)
		delete(p.arms, key)
	}
	return p
}

// scan reads the package-level declarations of one gofmt-ed generated
// file: a type whose doc comment has a "Schema:" line is that schema's
// type; every other declared name is a helper. The fields of such a
// struct are kept, and the comment of a union's arm enum ("UKind names
// an arm of U") says which structs are unions.
func (p *Previous) scan(data []byte, twice, unions map[string]bool) {
	s := bufio.NewScanner(bytes.NewReader(data))
	s.Buffer(nil, 1<<20)
	key, digest, text := "", "", ""
	block := "" // "const" or "var" inside a parenthesised block
	body := ""  // the schema key of the struct whose fields are being read
	for s.Scan() {
		line := s.Text()
		switch {
		case body != "":
			if line == "}" {
				body = ""
			} else if f := strings.Fields(line); len(f) == 2 && !strings.HasPrefix(f[0], "//") {
				p.arms[body] = append(p.arms[body], naming.Arm{Label: f[0], Type: strings.TrimPrefix(f[1], "*")})
			}
			continue
		case block != "":
			if line == ")" {
				block = ""
			} else if name, ok := strings.CutPrefix(line, "\t"); ok && !strings.HasPrefix(name, "//") {
				p.helper(firstIdent(name))
			}
			continue
		case strings.HasPrefix(line, "// Schema: "):
			key, digest, text = schemaLine(strings.TrimPrefix(line, "// Schema: "))
			continue
		case strings.HasPrefix(line, "//"):
			if kind, rest, ok := strings.Cut(strings.TrimPrefix(line, "// "), " names an arm of "); ok && firstIdent(kind) == kind {
				if u, _, ok := strings.Cut(rest, ";"); ok {
					unions[u] = true
				}
			}
			continue
		case strings.HasPrefix(line, "type "):
			name := firstIdent(strings.TrimPrefix(line, "type "))
			switch old, seen := p.types[key]; {
			case key == "" || name == "":
				p.helper(name)
			case seen && old != name:
				twice[key] = true
			default:
				p.types[key] = name
				if digest != "" {
					p.digests[key] = digest
				}
				if text != "" {
					p.texts[key] = text
				}
				if strings.HasSuffix(line, " struct {") {
					body, p.arms[key] = key, nil
				}
			}
		case strings.HasPrefix(line, "func ") && !strings.HasPrefix(line, "func ("):
			p.helper(firstIdent(strings.TrimPrefix(line, "func ")))
		case line == "const (" || line == "var (":
			block = strings.TrimSuffix(line, " (")
		case strings.HasPrefix(line, "const ") || strings.HasPrefix(line, "var "):
			_, rest, _ := strings.Cut(line, " ")
			p.helper(firstIdent(rest))
		}
		key, digest, text = "", "", ""
	}
}

func (p *Previous) helper(name string) {
	if name != "" && name != "_" {
		p.helpers[name] = true
	}
}

// firstIdent is the identifier s starts with.
func firstIdent(s string) string {
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	if end < 0 {
		return s
	}
	return s[:end]
}

// schemaLine reads the text after "// Schema: " ("<$id>#<pointer>", then
// " merged into <$id>#<pointer>" for a merged copy, the title, ", digests
// <hex> <hex>") as the schema key ir.Type.Key gives, the digest and the
// digest of the schema's whole text when it differs (ir.Type.Digest,
// TextDigest); "" when it is not one. An adcpgen before TextDigest wrote
// one digest, of the whole text (", digest <hex>").
func schemaLine(text string) (key, digest, whole string) {
	f := strings.Fields(text)
	if len(f) == 0 || !strings.Contains(f[0], "#") {
		return "", "", ""
	}
	key = registry.SchemaKey(strings.TrimRight(f[0], ","))
	if len(f) >= 4 && f[1] == "merged" && f[2] == "into" {
		key += " in " + registry.SchemaKey(strings.TrimRight(f[3], ".,"))
	}
	for i := 1; i+1 < len(f); i++ {
		switch f[i] {
		case "digest":
			digest = strings.TrimRight(f[i+1], ".,")
		case "digests":
			digest = strings.TrimRight(f[i+1], ".,")
			if i+2 < len(f) {
				whole = strings.TrimRight(f[i+2], ".,")
			}
		}
	}
	return key, digest, whole
}

// previousOfPackage is what a package built in memory declares, as
// Previous: what generating it into a directory would leave there.
func previousOfPackage(pkg *ir.Package) *Previous {
	p := &Previous{types: map[string]string{}, digests: map[string]string{}, texts: map[string]string{},
		helpers: map[string]bool{}, arms: map[string][]naming.Arm{}}
	for _, t := range pkg.Types {
		p.types[t.Key()], p.digests[t.Key()] = t.Name, t.Digest
		if t.TextDigest != t.Digest {
			p.texts[t.Key()] = t.TextDigest
		}
		switch t.Kind {
		case ir.KindEnum:
			for _, v := range t.Values {
				p.helper(v.GoName)
			}
			p.helper(t.KnownValues)
		case ir.KindUnion:
			p.helper(t.Union.KindType)
			for _, a := range t.Union.Arms {
				p.helper(a.KindConst)
				p.helper(a.Constructor)
				p.arms[t.Key()] = append(p.arms[t.Key()], naming.Arm{Label: a.GoName, Type: ir.GoString(a.Type, nil)})
			}
		}
	}
	if pkg.Registry != nil {
		for _, tool := range pkg.Registry.Tools {
			p.helper(tool.ResultName)
		}
	}
	return p
}
