package lower

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/generator/internal/load"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// detailsExceptions are the error-details files whose name does not follow
// kebab-case(code).json (see the spec README).
var detailsExceptions = map[string]struct {
	code      string
	alternate bool
}{
	"agent-permission-denied.json":          {"PERMISSION_DENIED", false},
	"accessibility-violation.json":          {"CREATIVE_REJECTED", true},
	"unsupported-refinement-dimension.json": {"UNSUPPORTED_FEATURE", false},
}

// BuildRegistry derives the tool registry, the error-code table and the
// code → error-details map: from schemas/manifest.json when the tree has
// one, else from the tree's layout (file names, enums/error-code.json).
// Entries whose schemas were not generated (see --include) are left out.
func BuildRegistry(set *load.Set, pkg *ir.Package) (*ir.Registry, error) {
	generated := map[string]*ir.Type{}
	for _, t := range pkg.Types {
		if t.Loc.Pointer == "" {
			generated[t.Loc.File] = t
		}
	}
	typeOf := func(p string) *ir.Type {
		if t := generated[p]; t != nil {
			return t
		}
		// A root that only renames another schema shares its type.
		if d := set.Doc(p); d != nil {
			if target := aliasTarget(d.Root); target != nil && target.Loc.Pointer == "" {
				return generated[target.Loc.File]
			}
		}
		return nil
	}
	r := &ir.Registry{}
	if data, ok := set.Data[registry.ManifestName]; ok {
		m, err := registry.ParseManifest(data, registry.ManifestName)
		if err != nil {
			return nil, err
		}
		r.Source = "schemas/manifest.json"
		fromManifest(m, r, typeOf)
	} else {
		r.Source = "derived from the tree layout, which has no schemas/manifest.json"
		deriveTools(set, r, typeOf)
		if err := deriveCodes(set, r); err != nil {
			return nil, err
		}
	}
	deriveDetails(set, r, typeOf)
	envelopes(set, r)
	r.Version = set.Tree.Version
	buildIndex(set, pkg, r, typeOf)
	return r, nil
}

// buildIndex lists every document root and definition with a type.
func buildIndex(set *load.Set, pkg *ir.Package, r *ir.Registry, typeOf func(string) *ir.Type) {
	seen := map[string]bool{}
	add := func(ref string, t *ir.Type) {
		if t != nil && !seen[ref] {
			seen[ref] = true
			r.Index = append(r.Index, &ir.IndexEntry{Ref: ref, Type: t})
		}
	}
	for _, d := range set.Docs {
		add(d.Path+"#", typeOf(d.Path))
	}
	for _, t := range pkg.Types {
		if isDefinition(t.Loc.Pointer) && t.Parent == nil {
			add(t.Loc.String(), t)
		}
	}
	sort.Slice(r.Index, func(i, j int) bool { return r.Index[i].Ref < r.Index[j].Ref })
}

// fromManifest copies the manifest's tables, keeping the entries whose
// schemas have types (a tool needs both its request and its response).
func fromManifest(m *registry.Manifest, r *ir.Registry, typeOf func(string) *ir.Type) {
	r.UnknownRecovery = m.UnknownRecovery
	r.Codes = m.CodeTable()
	for _, mt := range m.Tools {
		tool := &ir.Tool{Name: mt.Name, Protocol: mt.Protocol, Mutating: mt.Mutating,
			IdempotencyRequired: mt.IdempotencyRequired, Deprecated: mt.Deprecated, Summary: mt.Summary,
			RequestSchema: mt.RequestSchema, ResponseSchema: mt.ResponseSchema,
			Request: typeOf(mt.RequestSchema), Response: typeOf(mt.ResponseSchema)}
		if tool.Request == nil || tool.Response == nil {
			continue
		}
		tool.IdempotencyRequired = tool.IdempotencyRequired || keyRequired(tool.Request)
		for _, a := range mt.AsyncSchemas {
			if t := typeOf(a); t != nil {
				tool.Async = append(tool.Async, &ir.AsyncResponse{Status: asyncStatus(a), Schema: a, Type: t})
			}
		}
		r.Tools = append(r.Tools, tool)
	}
	for _, res := range m.Results {
		if t := typeOf(res.Schema); t != nil {
			r.WebhookResults = append(r.WebhookResults, &ir.WebhookResult{TaskType: res.TaskType, Schema: res.Schema, Type: t})
		}
	}
}

// keyRequired reports a request type that requires an idempotency_key.
// Manifests before 3.2 have no idempotency_requirement (3.0.26, 3.1.19) and
// older trees no manifest, yet their mutating tools' request schemas
// require the key: a request without one is invalid whatever the manifest
// says, so the tool requires one.
func keyRequired(req *ir.Type) bool {
	if req == nil || req.Kind != ir.KindStruct {
		return false
	}
	for _, f := range req.Fields {
		if f.JSONName == "idempotency_key" && f.Required {
			return true
		}
	}
	return false
}

// asyncStatus reads the status from "<tool>-async-response-<status>.json".
func asyncStatus(p string) string {
	base := strings.TrimSuffix(path.Base(p), ".json")
	if i := strings.LastIndex(base, "-async-response-"); i >= 0 {
		return base[i+len("-async-response-"):]
	}
	return base
}

// deriveTools pairs <tool>-request.json with <tool>-response.json.
func deriveTools(set *load.Set, r *ir.Registry, typeOf func(string) *ir.Type) {
	byName := map[string]*ir.Tool{}
	for _, d := range set.Docs {
		base := path.Base(d.Path)
		if !strings.HasSuffix(base, "-request.json") {
			continue
		}
		stem := strings.TrimSuffix(d.Path, "-request.json")
		req, resp := typeOf(d.Path), typeOf(stem+"-response.json")
		if req == nil || resp == nil {
			continue
		}
		name := strings.ReplaceAll(path.Base(stem), "-", "_")
		tool := &ir.Tool{Name: name, Protocol: path.Dir(d.Path), Request: req, Response: resp,
			RequestSchema: d.Path, ResponseSchema: stem + "-response.json", IdempotencyRequired: keyRequired(req)}
		if prev := byName[name]; prev != nil {
			// Later manifests list the media-buy copy of a tool defined twice.
			keep, drop := prev, tool
			if tool.Protocol == "media-buy" {
				keep, drop = tool, prev
			}
			r.Missing = append(r.Missing, fmt.Sprintf("tool %s: defined in %s and %s; kept %s", name, prev.Protocol, tool.Protocol, keep.Protocol))
			if keep == prev {
				continue
			}
			for i, t := range r.Tools {
				if t == drop {
					r.Tools = append(r.Tools[:i], r.Tools[i+1:]...)
					break
				}
			}
		}
		for _, status := range []string{"input-required", "submitted", "working"} {
			p := stem + "-async-response-" + status + ".json"
			if t := typeOf(p); t != nil {
				tool.Async = append(tool.Async, &ir.AsyncResponse{Status: status, Schema: p, Type: t})
			}
		}
		byName[name] = tool
		r.Tools = append(r.Tools, tool)
	}
	sort.Slice(r.Tools, func(i, j int) bool { return r.Tools[i].Name < r.Tools[j].Name })
	if len(r.Tools) > 0 {
		r.Missing = append(r.Missing, "tools: which tools mutate state (the tree has no manifest; Mutating is false for all)")
	}
}

// deriveCodes reads enums/error-code.json and its enumMetadata recovery.
func deriveCodes(set *load.Set, r *ir.Registry) error {
	const file = "enums/error-code.json"
	d := set.Doc(file)
	if d == nil {
		r.Missing = append(r.Missing, "error codes: the tree has neither a manifest nor "+file)
		return nil
	}
	meta := d.Source.Get("enumMetadata")
	descs := d.Source.Get("enumDescriptions")
	deprecated := map[string]bool{}
	if n := d.Root.Extension("x-deprecated-enum-values"); n != nil {
		for _, e := range n.Elems {
			deprecated[e.Str] = true
		}
	}
	noRecovery, fromProse := 0, 0
	for _, v := range d.Root.Enum {
		if v.Node.Kind != jsonsrc.String {
			continue
		}
		code := registry.ErrorCode{Code: v.Node.Str, Deprecated: deprecated[v.Node.Str]}
		if desc := descs.Get(code.Code); desc != nil && desc.Kind == jsonsrc.String {
			code.Description = desc.Str
		}
		if rec := meta.Get(code.Code).Get("recovery"); rec != nil && rec.Kind == jsonsrc.String {
			code.Recovery = registry.Recovery(rec.Str)
			if !code.Recovery.Valid() {
				return schema.Errorf(schema.Loc{File: file}.Child("enumMetadata", code.Code, "recovery"),
					"%q is not transient, correctable or terminal", rec.Str)
			}
		} else if m := recoveryProse.FindStringSubmatch(code.Description); m != nil {
			// Before enumMetadata existed the class was only in the prose,
			// which the spec calls normative.
			code.Recovery = registry.Recovery(m[1])
			fromProse++
		} else {
			noRecovery++
		}
		r.Codes = append(r.Codes, code)
	}
	sort.Slice(r.Codes, func(i, j int) bool { return r.Codes[i].Code < r.Codes[j].Code })
	if fromProse > 0 {
		r.Missing = append(r.Missing, fmt.Sprintf("error codes: recovery classes of %d codes read from enumDescriptions prose (no manifest, no enumMetadata)", fromProse))
	}
	if noRecovery > 0 {
		r.Missing = append(r.Missing, fmt.Sprintf("error codes: %d of %d codes have no recovery class (no manifest, no enumMetadata)", noRecovery, len(r.Codes)))
	}
	return nil
}

// deriveDetails maps codes to error-details types by file name.
func deriveDetails(set *load.Set, r *ir.Registry, typeOf func(string) *ir.Type) {
	known := map[string]bool{}
	for _, c := range r.Codes {
		known[c.Code] = true
	}
	for _, d := range set.Docs {
		if path.Dir(d.Path) != "error-details" || path.Base(d.Path) == "vendor-error-codes.json" {
			continue
		}
		t := typeOf(d.Path)
		if t == nil || t.Kind != ir.KindStruct {
			continue
		}
		code, alternate := detailsCode(path.Base(d.Path))
		if len(known) > 0 && !known[code] {
			r.Missing = append(r.Missing, fmt.Sprintf("error details %s: code %s is not in the error-code table", d.Path, code))
		}
		r.Details = append(r.Details, &ir.DetailsEntry{Code: code, Type: t, Alternate: alternate})
	}
	sort.SliceStable(r.Details, func(i, j int) bool {
		a, b := r.Details[i], r.Details[j]
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return !a.Alternate && b.Alternate
	})
}

var recoveryProse = regexp.MustCompile(`Recovery: (transient|correctable|terminal)\b`)

func detailsCode(file string) (string, bool) {
	if e, ok := detailsExceptions[file]; ok {
		return e.code, e.alternate
	}
	return strings.ToUpper(strings.ReplaceAll(strings.TrimSuffix(file, ".json"), "-", "_")), false
}
