package seller

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/release"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// DefaultMaxRequestBytes caps a call's arguments when Options.MaxRequestBytes
// is zero: the 1 MB AdCP sets on payloads a peer must accept.
const DefaultMaxRequestBytes = 1 << 20

// Options configures a Server. The zero value serves without schema
// validation, without authentication and with in-memory tasks.
type Options struct {
	// Logger receives what the buyer is never told: handler errors, panics
	// with their stacks, responses refused by validation with the schema
	// issues, refused credentials. nil discards.
	Logger *slog.Logger
	// Schemas is the spec tree of the Spec's version (spec.Open). With it,
	// every request is validated against the tool's request schema before
	// its handler runs, and the MCP transport can publish request schemas.
	Schemas *spec.Tree
	// ValidateResponses validates every response, interim payload and task
	// result against the version's schema before it is sent; one that
	// fails is never sent: the buyer gets a transient SERVICE_UNAVAILABLE
	// and Logger the issues. It needs Schemas. Turn it on in tests and
	// staging; it costs a schema validation per response.
	ValidateResponses bool
	// Authenticator checks credentials on every HTTP request (both
	// transports). nil serves every tool to anonymous callers.
	Authenticator Authenticator
	// PublicTools may be called without credentials when Authenticator is
	// set; nil means DefaultPublicTools. Everything else is refused with
	// HTTP 401.
	PublicTools []string
	// Tasks creates and tracks async tasks (StartTask); nil keeps them in
	// this server's memory, which one replica can serve, a day after each
	// ends. runtime/sellertask's Manager is the TaskManager to set: on
	// sellerstore.NewMemory (its default), or on a store replicas share
	// (sellerstore/pgstore), with webhooks and the status tools.
	Tasks TaskManager
	// Middleware wraps every call after the request is decoded and
	// validated and before the handler runs, the first entry outermost. It
	// sees the raw request and the principal, and may answer instead of
	// the handler (idempotent replay, say).
	Middleware []Middleware
	// MaxRequestBytes caps a call's arguments before anything decodes
	// them; 0 means DefaultMaxRequestBytes.
	MaxRequestBytes int
	// Capabilities is the base of the automatic get_adcp_capabilities
	// answer (a JSON object, such as {"account": {...}, "media_buy":
	// {...}}); the server adds adcp.major_versions and
	// adcp.supported_versions (the endpoint's releases), adcp.idempotency
	// ({"supported": false} unless present) and supported_protocols (from
	// the registered tools) where absent. Its adcp.build_version, when
	// set, is also sent in VERSION_UNSUPPORTED's details. Unused when the
	// seller registers get_adcp_capabilities itself. New refuses one that
	// is not a JSON object.
	Capabilities json.RawMessage
	// SignedRequests verifies RFC 9421 request signatures (see its doc),
	// advertised as request_signing; nil verifies none.
	SignedRequests *SignedRequests
	// BrandJSONURL is the HTTPS URL of the operator's brand.json, whose
	// agents[] entry for this agent names the jwks_uri of its signing
	// keys: advertised as identity.brand_json_url (AdCP 3.1 and later),
	// where buyers start to verify its webhooks (security.mdx "Discovering
	// an agent's signing keys via brand_json_url"). Identity serves both.
	// New refuses anything but an absolute https URL (the schema's
	// "^https://"): leave it empty for an agent served over plain http.
	BrandJSONURL string
	// Observer is told of every call served (a span per call, with the
	// schema validation and the handler inside it, and each request
	// signature verified), in AdCP's terms: runtime/oteladcp's makes
	// OpenTelemetry spans and metrics of them. nil observes nothing, at no
	// cost.
	Observer observe.Observer
	// MajorOnlyToDefault serves a request that declares adcp_major_version
	// of this server's major and no adcp_version in this server's release,
	// where versioning.mdx serves the highest release of the endpoint
	// (release.Set.MajorOnly): for an endpoint that added releases
	// (AddRelease) whose buyers from before release-precision negotiation
	// (3.0, which sends the major alone) must keep the answers they read.
	// It applies to the endpoint's default server.
	MajorOnlyToDefault bool
	// UndeclaredRelease, a wire value ("3.1"), serves a request that
	// declares neither adcp_version nor adcp_major_version in that release
	// of the endpoint rather than in this server's (versioning.mdx:
	// "Omitted → server uses its default release"). With
	// MajorOnlyToDefault, buyers from before release-precision negotiation
	// (which send the major) keep their answers, while a call that pins
	// nothing, as a raw probe, is answered in a later release. It applies
	// to the endpoint's default server; a release the endpoint does not
	// serve (AddRelease) leaves such calls to this server.
	UndeclaredRelease string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Server serves the AdCP tools a seller registered for one spec version.
// It is transport-free: runtime/mcpserver and runtime/a2aserver put it on
// the wire, and both serve the same handlers. Register tools (Handle,
// HandleSync, HandleRaw) before serving; a Server is safe for concurrent
// use.
type Server struct {
	spec      *registry.Spec
	rel       release.Release // the spec's release, zero when it is none
	group     *group          // the servers of the endpoint (releases.go)
	cfg       Options
	log       *slog.Logger
	validator *validate.Validator
	public    map[string]bool
	tasks     TaskManager
	maxBytes  int
	verifier  *signing.Verifier // SignedRequests' (nil without)
	obs       observe.Observer  // Options.Observer

	mu    sync.RWMutex
	tools map[string]*entry
	// blocks are capability members added by framework pieces
	// (SetCapability), by name.
	blocks map[string]func() json.RawMessage
	chain  Dispatch // Middleware around runEntry, built on first use
}

// entry is one served tool.
type entry struct {
	tool registry.Tool
	// raw marks a tool registered with HandleRaw (no generated types).
	raw bool
	// auto marks the automatic get_adcp_capabilities.
	auto bool
	// ownsIssues hands schema issues to the handler (RawTool.OwnsSchemaIssues).
	ownsIssues bool
	// decode reads the arguments strictly into the tool's request type.
	decode func(args []byte) (any, error)
	// run calls the handler with the decoded request.
	run func(ctx context.Context, c *Call) *Answer
	// rawHandler is a raw tool's handler (HandleRaw).
	rawHandler Dispatch
	// bridge marks a tool served through another release's handler
	// (Bridge).
	bridge *bridge
}

// New returns a server for spec (the Spec of your generated package). It
// fails when Schemas is of another version than spec, when
// ValidateResponses is set without Schemas, or when SignedRequests cannot
// be served (no Keys, a policy the version cannot advertise, a version
// without a signing profile).
func New(s *registry.Spec, cfg Options) (*Server, error) {
	if s == nil {
		return nil, fmt.Errorf("seller: nil spec")
	}
	srv := &Server{spec: s, cfg: cfg, tools: map[string]*entry{}, public: map[string]bool{}, obs: cfg.Observer}
	srv.rel, _ = release.Of(s.Version())
	if cfg.UndeclaredRelease != "" {
		if _, err := release.FromWire(cfg.UndeclaredRelease); err != nil {
			return nil, fmt.Errorf("seller: UndeclaredRelease: %w", err)
		}
	}
	srv.newGroup()
	srv.log = cfg.Logger
	if srv.log == nil {
		srv.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Schemas != nil {
		v, err := validate.New(cfg.Schemas, validate.Options{})
		if err != nil {
			return nil, fmt.Errorf("seller: schemas %s: %w", cfg.Schemas.Source, err)
		}
		if v.Version() != s.Version() {
			return nil, fmt.Errorf("seller: schemas %s are version %q, the spec is %q", cfg.Schemas.Source, v.Version(), s.Version())
		}
		srv.validator = v
	} else if cfg.ValidateResponses {
		return nil, fmt.Errorf("seller: ValidateResponses needs Schemas")
	}
	public := cfg.PublicTools
	if public == nil {
		public = DefaultPublicTools
	}
	for _, t := range public {
		srv.public[t] = true
	}
	srv.tasks = cfg.Tasks
	if srv.tasks == nil {
		srv.tasks = newMemoryTasks(cfg.Now)
	}
	srv.maxBytes = cfg.MaxRequestBytes
	if srv.maxBytes <= 0 {
		srv.maxBytes = DefaultMaxRequestBytes
	}
	if t, ok := s.Tool(capabilitiesTool); ok {
		srv.tools[capabilitiesTool] = srv.capabilitiesEntry(t)
	}
	if err := checkOptions(cfg); err != nil {
		return nil, err
	}
	if err := srv.setupSigning(); err != nil {
		return nil, err
	}
	return srv, nil
}

// Spec is the spec version the server serves.
func (s *Server) Spec() *registry.Spec { return s.spec }

// Schemas is Options.Schemas (nil without).
func (s *Server) Schemas() *spec.Tree { return s.cfg.Schemas }

// Validator validates against Options.Schemas (nil without).
func (s *Server) Validator() *validate.Validator { return s.validator }

// Logger is Options.Logger (a discarding logger without).
func (s *Server) Logger() *slog.Logger { return s.log }

// Tasks is the server's TaskManager.
func (s *Server) Tasks() TaskManager { return s.tasks }

// MaxRequestBytes is the cap on a call's arguments.
func (s *Server) MaxRequestBytes() int { return s.maxBytes }

// Public reports a tool callable without credentials, in any release of
// the endpoint (see AddRelease).
func (s *Server) Public(tool string) bool {
	for _, r := range s.group.servers {
		r.mu.RLock()
		public := r.public[tool]
		r.mu.RUnlock()
		if public {
			return true
		}
	}
	return false
}

// Tools lists the served tools, sorted by name: the registered ones and
// the automatic get_adcp_capabilities. A tool registered with HandleRaw
// has only Name, Summary and its schemas set.
func (s *Server) Tools() []registry.Tool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]registry.Tool, 0, len(s.tools))
	for _, e := range s.tools {
		out = append(out, e.tool)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Serves reports whether tool is served.
func (s *Server) Serves(tool string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.tools[tool]
	return ok
}

func (s *Server) lookup(tool string) (*entry, Dispatch) {
	s.mu.RLock()
	e, chain := s.tools[tool], s.chain
	s.mu.RUnlock()
	if chain == nil {
		s.mu.Lock()
		if s.chain == nil {
			d := Dispatch(s.runEntry)
			for i := len(s.cfg.Middleware) - 1; i >= 0; i-- {
				d = s.cfg.Middleware[i](d)
			}
			s.chain = d
		}
		chain = s.chain
		s.mu.Unlock()
	}
	return e, chain
}

// register adds e, panicking on a tool served twice: registration happens
// at start-up, where a mistake should stop the program, as with
// http.ServeMux.
func (s *Server) register(e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.tools[e.tool.Name]; ok && !old.auto {
		panic(fmt.Sprintf("seller: tool %q registered twice", e.tool.Name))
	}
	s.tools[e.tool.Name] = e
}

// now reads the configured clock.
func (s *Server) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now()
	}
	return time.Now()
}

// pickCode returns the first of codes the spec lists, else the last one.
func (s *Server) pickCode(codes ...string) string {
	for _, c := range codes {
		if _, ok := s.spec.Recovery(c); ok {
			return c
		}
	}
	return codes[len(codes)-1]
}

// newError is an error with the spec's recovery class for code.
func (s *Server) newError(code, message string) *adcperr.Error {
	e := &adcperr.Error{Code: code, Message: message}
	e.Recovery, _ = s.spec.Recovery(code)
	return e
}

// protocolOf maps a tool's protocol ("media-buy") to the
// supported_protocols value ("media_buy").
func protocolOf(t registry.Tool) string { return strings.ReplaceAll(t.Protocol, "-", "_") }

func sortedProtocols(tools []registry.Tool, skip ...string) []string {
	var out []string
	for _, t := range tools {
		p := protocolOf(t)
		if p == "" || slices.Contains(skip, p) || slices.Contains(out, p) {
			continue
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
