package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/wire"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Validator validates payloads against the schemas of one spec tree. It
// compiles each root schema on first use and keeps it; it is safe for
// concurrent use.
type Validator struct {
	tree         *spec.Tree
	version      string // as in the tree's $ids
	rootRelative bool   // $ids are "/schemas/<v>/..." rather than absolute
	limits       Limits

	mu       sync.Mutex // guards compiler, compiled, failed
	compiler *jsonschema.Compiler
	compiled map[string]*Schema // by absolute URL, with fragment if any
	failed   map[string]error

	loaded atomic.Int64 // schema files read, for tests of laziness

	toolsOnce sync.Once
	tools     *toolIndex
	toolsErr  error

	reference bool             // Options.Reference
	programs  *programCompiler // guarded by mu
	evals     sync.Pool        // *evaluator
}

// Options tune a Validator. The zero value is the default.
type Options struct {
	Limits Limits
	// Reference validates with the reference validator
	// (santhosh-tekuri/jsonschema over a decoded tree) instead of the fast
	// path. Both give the same issues; the fast one reads the bytes
	// directly and is tens of times quicker.
	Reference bool
}

// New returns a validator for tree. Nothing is compiled yet.
func New(tree *spec.Tree, opts Options) (*Validator, error) {
	if tree == nil || tree.FS == nil {
		return nil, errors.New("validate: nil spec tree")
	}
	version, rootRelative, err := idStyle(tree.FS)
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", tree.Source, err)
	}
	v := &Validator{
		tree:         tree,
		version:      version,
		rootRelative: rootRelative,
		limits:       opts.Limits.withDefaults(),
		compiled:     map[string]*Schema{},
		failed:       map[string]error{},
		reference:    opts.Reference,
	}
	v.compiler = v.newCompiler()
	v.programs = newProgramCompiler(v)
	return v, nil
}

// Version is the spec version the tree's $ids carry.
func (v *Validator) Version() string { return v.version }

func (v *Validator) newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft7
	c.LoadURL = v.load // the only loader: never the network
	for name, f := range formats() {
		c.Formats[name] = f
	}
	c.RegisterExtension(patternKeyword, nil, ecmaPatternExt{})
	return c
}

// Schema is a compiled schema, ready to validate payloads.
type Schema struct {
	// ID is the schema's $id in the tree's style, with "#fragment" when the
	// caller named a sub-schema.
	ID string
	// Path is the file's path in the tree ("media-buy/get-products-response.json").
	Path string

	v *Validator
	s *jsonschema.Schema
	// prog is the fast path's program; nil when the schema uses something
	// the fast path does not support (fastErr says what).
	prog    *snode
	fastErr error
}

// CompileError reports a schema of the tree that does not compile.
type CompileError struct {
	ID  string
	Err error
}

func (e *CompileError) Error() string { return fmt.Sprintf("schema %s: %v", e.ID, e.Err) }
func (e *CompileError) Unwrap() error { return e.Err }

// Schema returns the compiled schema named by ref: an $id in either style
// ("/schemas/3.1.19/core/error.json", "https://adcontextprotocol.org/schemas/
// 3.2.0-beta.3/core/error.json"), optionally with a "#/json/pointer"
// fragment, or a tree path ("media-buy/get-products-response.json").
func (v *Validator) Schema(ref string) (*Schema, error) {
	u, frag, err := v.resolveRef(ref)
	if err != nil {
		return nil, err
	}
	p, _ := v.pathForURL(u)
	if !v.hasFile(p) {
		return nil, fmt.Errorf("%w: %s: no file %s in spec %s", ErrUnknownSchema, ref, p, v.tree.Source)
	}
	if frag != "" {
		if err := v.checkFragment(p, frag); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrUnknownSchema, ref, err)
		}
	}
	key := u + fragmentSuffix(frag)
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.compiled[key]; ok {
		return s, nil
	}
	if err, ok := v.failed[key]; ok {
		return nil, err
	}
	s, err := v.compileLocked(key)
	if err != nil {
		err = &CompileError{ID: v.displayID(key), Err: err}
		v.failed[key] = err
		return nil, err
	}
	sch := &Schema{ID: v.displayID(key), Path: p, v: v, s: s}
	if !v.reference {
		sch.prog, sch.fastErr = v.compileProgram(key)
	}
	v.compiled[key] = sch
	return sch, nil
}

// checkFragment reports whether a JSON pointer names a value in the file,
// so a caller's typo is an unknown schema rather than a compile failure.
func (v *Validator) checkFragment(p, frag string) error {
	data, err := fs.ReadFile(v.tree.FS, p)
	if err != nil {
		return err
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	for _, tok := range strings.Split(frag, "/")[1:] {
		if u, err := url.PathUnescape(tok); err == nil {
			tok = u
		}
		tok = wire.UnescapePointerToken(tok)
		switch d := doc.(type) {
		case map[string]any:
			next, ok := d[tok]
			if !ok {
				return fmt.Errorf("%s has nothing at #%s", p, frag)
			}
			doc = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(d) {
				return fmt.Errorf("%s has nothing at #%s", p, frag)
			}
			doc = d[i]
		default:
			return fmt.Errorf("%s has nothing at #%s", p, frag)
		}
	}
	return nil
}

// compileLocked compiles under v.mu, and never panics. A compiler that
// failed midway may hold half-built schemas, so it is replaced.
func (v *Validator) compileLocked(key string) (s *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("schema compiler panicked: %v", r)
		}
		if err != nil {
			v.compiler = v.newCompiler()
		}
	}()
	return v.compiler.Compile(key)
}

// Tool returns the compiled request or response schema of a tool.
func (v *Validator) Tool(tool string, dir Direction) (*Schema, error) {
	p, err := v.ToolSchemaPath(tool, dir)
	if err != nil {
		return nil, err
	}
	return v.Schema(p)
}

// Validate validates payload against the schema named by ref (see Schema).
func (v *Validator) Validate(ref string, payload []byte) ([]Issue, error) {
	s, err := v.Schema(ref)
	if err != nil {
		return nil, err
	}
	return s.Validate(payload)
}

// ValidateTool validates payload as a tool's request or response.
func (v *Validator) ValidateTool(tool string, dir Direction, payload []byte) ([]Issue, error) {
	s, err := v.Tool(tool, dir)
	if err != nil {
		return nil, err
	}
	return s.Validate(payload)
}

// SchemaPaths lists the tree's schema files (JSON files with an $id),
// sorted, leaving out bundled/ and core/async-response-refs/.
func (v *Validator) SchemaPaths() ([]string, error) {
	var out []string
	err := fs.WalkDir(v.tree.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if isSkipped(p) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".json") {
			return nil
		}
		data, err := fs.ReadFile(v.tree.FS, p)
		if err != nil {
			return err
		}
		var doc struct {
			ID any `json:"$id"`
		}
		if json.Unmarshal(data, &doc) == nil {
			if id, ok := doc.ID.(string); ok && id != "" {
				out = append(out, p)
			}
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// CompileAll compiles every schema of the tree up front. It returns every
// failure, joined, each naming its schema.
func (v *Validator) CompileAll() error {
	paths, err := v.SchemaPaths()
	if err != nil {
		return fmt.Errorf("spec %s: %w", v.tree.Source, err)
	}
	var errs []error
	for _, p := range paths {
		if _, err := v.Schema(p); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Validate checks a JSON payload. It returns the schema issues (nil when
// valid), or a *PayloadError when the payload is not JSON within limits.
//
// Duplicate object keys and "__proto__"-style keys are not reported: as
// when decoded into maps, the last duplicate wins and such keys are
// ordinary names. The strict generated decoders catch both.
func (s *Schema) Validate(payload []byte) ([]Issue, error) {
	if s.prog != nil && !s.v.reference {
		if is, err, decided := s.validateFast(payload); decided {
			return is, err
		}
	}
	return s.validateReference(payload)
}

// validateReference validates with the reference validator.
func (s *Schema) validateReference(payload []byte) ([]Issue, error) {
	doc, err := decodePayload(payload, s.v.limits)
	if err != nil {
		return nil, err
	}
	return s.ValidateValue(doc)
}

// ValidateValue checks a value decoded from JSON with numbers as
// json.Number (or float64): nil, bool, string, []any, map[string]any.
func (s *Schema) ValidateValue(doc any) (issues []Issue, err error) {
	defer func() {
		if r := recover(); r != nil {
			issues, err = nil, fmt.Errorf("validating against %s: validator panicked: %v", s.ID, r)
		}
	}()
	verr := s.s.Validate(doc)
	if verr == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return nil, fmt.Errorf("validating against %s: %w", s.ID, verr)
	}
	return s.v.issuesFrom(ve), nil
}
