package seller

import (
	"errors"
	"fmt"
	"slices"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/release"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// AdCP agents negotiate the release on every call (versioning.mdx,
// "Version negotiation"): a buyer declares its pin with adcp_version
// (release precision, "3.1") and adcp_major_version, and the seller serves
// the release runtime/release's Set.Resolve picks among the ones it speaks,
// echoes it as adcp_version on the answer, and refuses anything else with
// VERSION_UNSUPPORTED carrying its releases. A Server speaks the release of
// its Spec ("3.0.26" is 3.0); AddRelease puts the servers of other
// releases (other generated packages) behind the same endpoint, and every
// call is answered by the server of the release it resolved to.

// group is the servers answering at one endpoint, one per release, the
// default first. Every server of a group points at it; a server alone is
// a group of one.
type group struct {
	servers []*Server
	set     release.Set
}

// AddRelease makes s's endpoint serve other's release too: calls whose
// declared release resolves to other's (see runtime/release) are answered
// by other, with its tools, handlers, schemas and middleware; s's release
// stays the default, for calls that declare none. Both servers' automatic
// get_adcp_capabilities list every release of the endpoint in
// adcp.supported_versions.
//
// What belongs to the endpoint is s's: the transports' authentication
// (Authenticator, PublicTools, SignedRequests) and body cap are those of
// the server given to them, for every release. Tasks are the endpoint's
// too, so that any release's status tools find any task: other shares s's
// TaskManager (set Options.Tasks on every server to the same manager, or
// on none). A task answers in the release of the call that started it.
//
// Call AddRelease before serving. It fails for a release s's endpoint
// serves already, for a server of no release (a spec version that is not
// one, such as adcpgen's core schemas), for a server another endpoint
// holds, and for a TaskManager of its own.
func (s *Server) AddRelease(other *Server) error {
	switch {
	case other == nil || other == s:
		return errors.New("seller: AddRelease needs another server")
	case s.rel.IsZero():
		return fmt.Errorf("seller: AddRelease: spec version %q is not an AdCP release", s.spec.Version())
	case other.rel.IsZero():
		return fmt.Errorf("seller: AddRelease: spec version %q is not an AdCP release", other.spec.Version())
	case len(other.group.servers) > 1:
		return fmt.Errorf("seller: AddRelease: the server of %s serves with other releases already", other.rel)
	case s.group.set.Contains(other.rel):
		return fmt.Errorf("seller: AddRelease: release %s (spec %s) is served already", other.rel, other.spec.Version())
	}
	if other.cfg.Tasks == nil {
		other.tasks = s.tasks
	} else if other.tasks != s.tasks {
		return fmt.Errorf("seller: AddRelease: the server of %s keeps its tasks in another TaskManager than %s's: set the same Options.Tasks on both, or on neither", other.rel, s.rel)
	}
	g := s.group
	g.servers = append(g.servers, other)
	g.set.Releases = append(g.set.Releases, other.rel)
	other.group = g
	return nil
}

// Releases lists the servers answering at s's endpoint, one per release,
// the default's first: s alone until AddRelease. A transport lists the
// tools of every one (Tools, Serves and Schemas are each server's own).
func (s *Server) Releases() []*Server { return slices.Clone(s.group.servers) }

// Release is the release s serves, at wire precision ("3.0" for a
// server of spec 3.0.26); "" when its spec version is no AdCP release.
func (s *Server) Release() string { return s.rel.String() }

// newGroup makes s a group of one.
func (s *Server) newGroup() {
	s.group = &group{servers: []*Server{s}}
	if !s.rel.IsZero() {
		s.group.set = release.Set{Releases: []release.Release{s.rel}, Default: s.rel}
		if s.cfg.MajorOnlyToDefault {
			s.group.set.MajorOnly = s.rel
		}
		if r, err := release.FromWire(s.cfg.UndeclaredRelease); err == nil {
			s.group.set.Default = r
		}
	}
}

// route resolves the release of a call and returns the server of that
// release, or the answer refusing the call (finished). Calls that cannot
// be read, or name a tool no release serves, go to the default server,
// which refuses them in its release.
func (s *Server) route(c *Call, name string) (*Server, *Answer) {
	def := s.group.servers[0]
	if def.rel.IsZero() {
		return def, nil // no release to negotiate: the core schemas
	}
	served := false
	for _, r := range s.group.servers {
		served = served || r.Serves(name)
	}
	if !served || s.parseArguments(c) != nil {
		c.Release = def.rel.String()
		return def, nil
	}
	rel, u := s.group.set.Resolve(c.args.Get(release.MemberVersion).Raw(), c.args.Get(release.MemberMajor).Raw())
	if u != nil {
		c.srv = def
		c.Tool.Name = name
		return nil, def.finish(c, ErrorAnswer(def.versionUnsupported(u)))
	}
	c.Release = rel.String()
	for _, r := range s.group.servers {
		if r.rel != rel {
			continue
		}
		if !r.Serves(name) {
			c.srv = r
			c.Tool.Name = name
			return nil, r.finish(c, ErrorAnswer(r.newError(r.pickCode("UNSUPPORTED_FEATURE", "INVALID_REQUEST"),
				fmt.Sprintf("This agent does not serve the tool %q in AdCP %s", truncateName(name), rel))))
		}
		return r, nil
	}
	// Resolve picks a release of the set, but UndeclaredRelease may name
	// one never added: the default server answers.
	c.Release = def.rel.String()
	return def, nil
}

// parseArguments reads c.Arguments once: within the size cap, strict
// JSON, an object. It returns the reason it cannot (readRequest answers
// it) or nil, with c.args set.
func (s *Server) parseArguments(c *Call) error {
	if c.args != nil {
		return nil
	}
	if len(c.Arguments) > s.maxBytes {
		return errTooLarge
	}
	if len(c.Arguments) == 0 {
		c.Arguments = []byte("{}") // MCP tools/call may omit arguments
	}
	if err := wire.Valid(c.Arguments); err != nil {
		return err
	}
	args, err := wire.ParseLenient(c.Arguments)
	if err != nil || !args.IsObject() {
		return errNotObject
	}
	c.args = args
	return nil
}

var (
	errTooLarge  = errors.New("arguments over the size cap")
	errNotObject = errors.New("arguments not a JSON object")
)

// versionUnsupported is VERSION_UNSUPPORTED for a declared release the
// endpoint cannot serve: correctable, naming the member at fault, its
// details the endpoint's releases (error-details/version-unsupported.json)
// with the build_version Options.Capabilities declares.
func (s *Server) versionUnsupported(u *release.Unsupported) *adcperr.Error {
	e := s.newError(s.pickCode("VERSION_UNSUPPORTED", "INVALID_REQUEST"), truncateText(u.Reason, 512))
	e.Field = u.Field
	d := *u
	d.BuildVersion = s.buildVersion()
	e.Details = &d
	return e
}

// buildVersion is adcp.build_version of Options.Capabilities, "" when
// absent.
func (s *Server) buildVersion() string {
	v, _ := wire.Lenient(s.cfg.Capabilities).Get("adcp").Get("build_version").AsString()
	return v
}

// anyEntry is the entry of a tool in the first release of the endpoint
// that serves it, nil when none does.
func (s *Server) anyEntry(name string) *entry {
	for _, r := range s.group.servers {
		if e := r.entryOf(name); e != nil {
			return e
		}
	}
	return nil
}

// versionField reports a release whose request schemas declare no
// adcp_version: release-precision negotiation came with 3.1, so a 3.0
// schema knows only adcp_major_version, and where one admits no
// undeclared member a 3.1 buyer's pin would fail it. The member is the
// negotiation's: such a release reads and validates the request without
// it.
func (s *Server) versionField() bool {
	return !s.rel.IsZero() && s.rel.Compare(release.Release{Major: 3, Minor: 1, Pre: "0"}) >= 0
}

// taskRelease is the release a task answers in: the one its latest answer
// was served in, else the one its request resolves to now ("" when
// neither says).
func (s *Server) taskRelease(t TaskSnapshot) string {
	if s.rel.IsZero() {
		return ""
	}
	if t.Answer != nil {
		if t.Answer.Release != "" {
			return t.Answer.Release
		}
		if v, ok := wire.Lenient(t.Answer.Body).Get(memberVersion).AsString(); ok {
			if r, err := release.FromWire(v); err == nil && s.group.set.Contains(r) {
				return v
			}
		}
	}
	if args, err := wire.ParseLenient(t.Request); err == nil && args.IsObject() {
		if r, u := s.group.set.Resolve(args.Get(release.MemberVersion).Raw(), args.Get(release.MemberMajor).Raw()); u == nil && s.group.set.Contains(r) {
			return r.String()
		}
	}
	return ""
}
