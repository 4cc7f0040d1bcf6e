package buyer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/release"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// A client is pinned to the release of its Spec (3.0.26 is 3.0,
// 3.2.0-beta.5 is 3.2-beta.5; versioning.mdx, "Version negotiation"). Every
// request declares the pin: adcp_version, and adcp_major_version for
// sellers that read only the major, each where the tool's request admits
// it (3.0's schemas do not declare adcp_version; most admit undeclared
// members, the rest get the major alone). The seller echoes the release it
// served as adcp_version; an answer in another release than the pin is a
// *ReleaseError (the seller downshifted), checked against that release's
// Spec when the client holds it (WithReleases), and never decoded into the
// pin's types silently; an answer without the echo (a 3.0 seller) is read
// as the pin's. VERSION_UNSUPPORTED is a *VersionError carrying the
// seller's releases. Releases reads what the seller speaks, once; Pin makes
// a client of another release for the same seller. No call is ever retried
// at another release on the client's own.

// WithReleases gives the client the Specs of other releases (other
// generated packages), to check an answer the seller served in one of them
// against that release's types (see ReleaseError) and to Pin them.
func WithReleases(specs ...*registry.Spec) ClientOption {
	return func(c *Client) {
		for _, s := range specs {
			if s != nil {
				c.held = append(c.held, s)
			}
		}
	}
}

// peer is what a client knows of the seller's releases, shared by the
// clients Pin makes.
type peer struct {
	mu       sync.Mutex
	read     bool
	releases []release.Release // ascending
}

// learn records the seller's releases (wire values; those that are none
// are skipped).
func (p *peer) learn(versions []string) {
	var rs []release.Release
	for _, v := range versions {
		if r, err := release.FromWire(v); err == nil && !slices.Contains(rs, r) {
			rs = append(rs, r)
		}
	}
	slices.SortFunc(rs, release.Release.Compare)
	p.mu.Lock()
	p.releases, p.read = rs, true
	p.mu.Unlock()
}

// known returns the seller's releases when they were read.
func (p *peer) known() ([]release.Release, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.releases, p.read
}

// Release is the client's pin at wire precision ("3.1"), "" for a spec
// version that is no AdCP release (adcpgen's core schemas).
func (c *Client) Release() string { return c.rel.String() }

// Releases are the releases the seller speaks, at wire precision,
// ascending: its get_adcp_capabilities' adcp.supported_versions, read once
// and kept for the clients Pin makes; a 3.0 seller, which lists only
// adcp.major_versions, speaks "3.0" (versioning.mdx: treat it as 3.0-only).
// The capabilities are asked without a pin, so a seller that would refuse
// the client's answers anyway. A seller that lists no
// get_adcp_capabilities among its tools (or does not serve it) is pre-v3:
// a *PreV3Error. Once they are known, a call whose pin the seller would
// not serve as it is is refused before anything is sent, with the
// *VersionError the seller would answer.
func (c *Client) Releases(ctx context.Context) ([]string, error) {
	if rs, ok := c.peer.known(); ok {
		return wireValues(rs), nil
	}
	if names, err := c.ToolNames(ctx); err == nil && !slices.Contains(names, capabilitiesTool) {
		return nil, &PreV3Error{Tools: len(names)}
	}
	out, err := c.call(ctx, capabilitiesTool, []byte(`{}`), callSettings{noRetry: c.noRetry, noPin: true})
	if err != nil {
		var ae *adcperr.Error
		if errors.As(err, &ae) && (ae.Code == "UNSUPPORTED_FEATURE" || ae.Code == "METHOD_NOT_FOUND") {
			return nil, &PreV3Error{Err: err}
		}
		return nil, err
	}
	adcp := wire.Lenient(out.Data).Get("adcp")
	var versions []string
	adcp.Get("supported_versions").Elems(func(v wire.Lenient) bool {
		if s, ok := v.AsString(); ok && len(versions) < 64 {
			versions = append(versions, s)
		}
		return true
	})
	if len(versions) == 0 {
		adcp.Get("major_versions").Elems(func(v wire.Lenient) bool {
			if n, ok := v.Number(); ok && n >= 1 && n <= 99 && n == float64(int(n)) && len(versions) < 64 {
				versions = append(versions, strconv.Itoa(int(n))+".0")
			}
			return true
		})
	}
	c.peer.learn(versions)
	rs, _ := c.peer.known()
	return wireValues(rs), nil
}

func wireValues(rs []release.Release) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}

// Pin returns a client of the same seller for another release: spec is
// that release's generated package's (a Spec WithReleases gave or any
// other). It shares the transport, the options (an extractor given with
// WithExtractor excepted: the new client's is built for spec) and what the
// client read of the seller's releases; an explicit re-pin, as AdCP asks
// after VERSION_UNSUPPORTED (never done on the caller's behalf).
func (c *Client) Pin(spec *registry.Spec) (*Client, error) {
	if spec == nil {
		return nil, errors.New("buyer: Pin: nil spec")
	}
	n := &Client{spec: spec, transport: c.transport, retry: c.retry, noRetry: c.noRetry, poll: c.poll, poller: c.poller,
		statusTool: c.statusTool, payloadCap: c.payloadCap, signer: c.signer, obs: c.obs, peer: c.peer}
	n.rel, _ = release.Of(spec.Version())
	n.held = append([]*registry.Spec{c.spec}, c.held...)
	n.x = extract.New(spec, extract.WithPayloadCap(c.payloadCap))
	return n, nil
}

// heldSpec returns the Spec the client holds for a release ("" none).
func (c *Client) heldSpec(r string) *registry.Spec {
	for _, s := range append([]*registry.Spec{c.spec}, c.held...) {
		if rr, err := release.Of(s.Version()); err == nil && rr.String() == r {
			return s
		}
	}
	return nil
}

// withPin adds the client's pin to a request: adcp_version and
// adcp_major_version, each unless the request has it already and where
// the tool's request admits it.
func (c *Client) withPin(info registry.Tool, req wire.Lenient) wire.Lenient {
	if c.rel.IsZero() {
		return req
	}
	if !req.Get(release.MemberMajor).Present() && c.admits(info, release.MemberMajor, strconv.Itoa(c.rel.Major)) {
		req = withMember(req, release.MemberMajor, []byte(strconv.Itoa(c.rel.Major)))
	}
	if !req.Get(release.MemberVersion).Present() && c.admits(info, release.MemberVersion, strconv.Quote(c.rel.String())) {
		req = withMember(req, release.MemberVersion, wire.AppendQuoted(nil, c.rel.String()))
	}
	return req
}

// admits reports whether a tool's request may carry member, as
// contextAllowed does: its type's strict decoder refuses an undeclared
// member exactly where the schema admits none. Without a type, the major
// goes everywhere (every 3.x request declares it) and adcp_version where
// the pin's schemas declare it (3.1 and later), as the JavaScript SDK
// sends it.
func (c *Client) admits(info registry.Tool, member, value string) bool {
	if info.NewRequest == nil {
		return member == release.MemberMajor || c.rel.Compare(release.Release{Major: 3, Minor: 1, Pre: "0"}) >= 0
	}
	key := info.Name + "\x00" + member
	if ok, cached := c.contextOK.Load(key); cached {
		return ok.(bool)
	}
	ok := true
	var de *wire.DecodeError
	if err := wire.Unmarshal([]byte(`{"`+member+`":`+value+`}`), info.NewRequest()); errors.As(err, &de) && de.Kind == wire.KindUnknownField && de.Pointer == "/"+member {
		ok = false
	}
	c.contextOK.Store(key, ok)
	return ok
}

// preflight refuses a call the seller would not serve in the pin, when
// the client knows the seller's releases (Releases).
func (c *Client) preflight(tool string) error {
	if c.rel.IsZero() {
		return nil
	}
	rs, ok := c.peer.known()
	if !ok || len(rs) == 0 {
		return nil
	}
	set := release.Set{Releases: rs}
	got, u := set.Resolve(json.RawMessage(strconv.Quote(c.rel.String())), nil)
	if u == nil && got == c.rel {
		return nil
	}
	e := &VersionError{Tool: tool, Pin: c.rel.String(), Supported: set.Versions(), Majors: set.Majors()}
	if u == nil {
		e.Served = got.String()
	}
	return e
}

// echoOf reads the release a payload says it was served in.
func echoOf(data []byte) string {
	s, _ := wire.Lenient(data).Get(release.MemberVersion).AsString()
	return s
}

// checkRelease refuses an answer served in another release than the pin
// (see ReleaseError): checked strictly against that release's types when
// the client holds its Spec.
func (c *Client) checkRelease(out *Reply) error {
	if out.Release == "" || c.rel.IsZero() || out.Release == c.rel.String() {
		return nil
	}
	e := &ReleaseError{Tool: out.Tool, Pin: c.rel.String(), Served: out.Release, Reply: out}
	s := c.heldSpec(out.Release)
	if s == nil {
		return e
	}
	v := payloadValue(s, out)
	if v == nil {
		return e
	}
	if err := wire.Unmarshal(out.Data, v); err != nil {
		return &SellerDataError{Tool: out.Tool, Source: out.DataPath, Type: fmt.Sprintf("%T", v), Err: err}
	}
	e.Value = v
	return e
}

// payloadValue is an empty value of the type a spec gives the reply's
// payload, nil when it gives none.
func payloadValue(s *registry.Spec, out *Reply) wire.Value {
	if out.Data == nil {
		return nil
	}
	info, ok := s.Tool(out.Tool)
	if !ok {
		return nil
	}
	switch out.Status {
	case task.Submitted, task.Working, task.InputRequired:
		if a, ok := info.AsyncFor(string(out.Status)); ok && a.New != nil {
			return a.New()
		}
	case task.AuthRequired:
	default:
		if info.NewResponse != nil {
			return info.NewResponse()
		}
	}
	return nil
}

// versionError types a seller's VERSION_UNSUPPORTED: its releases from the
// details (error-details/version-unsupported.json), which the client
// learns (the details are authoritative).
func (c *Client) versionError(tool string, ae *adcperr.Error) error {
	if ae == nil || ae.Code != "VERSION_UNSUPPORTED" {
		return ae
	}
	e := &VersionError{Tool: tool, Pin: c.rel.String(), Err: ae}
	d := wire.Lenient(ae.RawDetails())
	if d == nil {
		if b, err := json.Marshal(ae.Details); err == nil && ae.Details != nil {
			d = b
		}
	}
	d.Get("supported_versions").Elems(func(v wire.Lenient) bool {
		if s, ok := v.AsString(); ok && len(e.Supported) < 64 {
			if _, err := release.FromWire(s); err == nil {
				e.Supported = append(e.Supported, s)
			}
		}
		return true
	})
	d.Get("supported_majors").Elems(func(v wire.Lenient) bool {
		if n, ok := v.Number(); ok && n >= 1 && n <= 99 && len(e.Majors) < 16 {
			e.Majors = append(e.Majors, int(n))
		}
		return true
	})
	e.Build, _ = d.Get("build_version").AsString()
	if len(e.Supported) > 0 {
		c.peer.learn(e.Supported)
	}
	return e
}

// VersionError is a call the seller does not serve in the client's pin:
// its VERSION_UNSUPPORTED (Err, the seller's error), or the same verdict
// reached before sending once the client knew the seller's releases
// (Releases; Err nil, and Served the release the seller would have
// answered in instead, if any). Supported are the seller's releases: pick
// one the program holds a generated package of and Pin it (AdCP SDKs
// raise this rather than retry at another release: the wire shape would
// change under the caller).
type VersionError struct {
	Tool string
	// Pin is the client's release.
	Pin string
	// Supported are the seller's releases (supported_versions), Majors
	// their majors, Build the seller's build_version (advisory).
	Supported []string
	Majors    []int
	Build     string
	// Served is the release the seller would downshift the pin to, "" when
	// it would refuse it.
	Served string
	// Err is the seller's error, nil for a verdict reached before sending.
	Err *adcperr.Error
}

func (e *VersionError) Error() string {
	var b strings.Builder
	b.WriteString("buyer: " + e.Tool + ": AdCP " + e.Pin + " is not served by this seller")
	if e.Served != "" {
		b.WriteString(" (it would answer in " + e.Served + ")")
	}
	b.WriteString("; it speaks ")
	if len(e.Supported) == 0 {
		b.WriteString("no release it named")
	} else {
		b.WriteString(strings.Join(e.Supported, ", "))
	}
	b.WriteString(": pin one of them (Client.Pin)")
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Unwrap is the seller's error (nil before sending).
func (e *VersionError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}

// ReleaseError is an answer the seller served in another release than the
// client's pin (its adcp_version echo): the seller downshifted (a 3.1 pin
// to a 3.0 seller). The typed call does not decode it into the pin's
// types; the answer is here whole: Reply (status, task id, the payload's
// bytes) and, when the client holds that release's Spec (WithReleases),
// Value, the payload decoded strictly into that release's type (the
// answer is then checked; a payload that fails it is a *SellerDataError).
// The call happened: a mutating tool's effect stands. Pin the served
// release to continue in it.
type ReleaseError struct {
	Tool string
	// Pin is the client's release, Served the one the seller answered in.
	Pin, Served string
	Reply       *Reply
	// Value is the payload as Served's generated type, nil when the
	// client holds no Spec of it.
	Value wire.Value
}

func (e *ReleaseError) Error() string {
	msg := "buyer: " + e.Tool + ": the seller answered in AdCP " + untrusted.SanitizeTruncate(e.Served, 32) + ", not the client's " + e.Pin
	if e.Value == nil {
		msg += " (the client holds no Spec of it: WithReleases)"
	}
	return msg
}

// PreV3Error is a seller without get_adcp_capabilities, the tool every
// AdCP 3 agent exposes: a pre-v3 implementation (versioning.mdx: infer
// v2), which this client does not speak; its retry safety (idempotency)
// and trust primitives (signed requests) are unknown.
type PreV3Error struct {
	// Tools is how many tools the seller listed without it (0 when the
	// list was not read).
	Tools int
	// Err is the seller's answer to get_adcp_capabilities, when it was
	// called.
	Err error
}

func (e *PreV3Error) Error() string {
	msg := "buyer: the seller does not expose get_adcp_capabilities: a pre-v3 (AdCP 2.x) agent, whose idempotency and signing guarantees are unknown"
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *PreV3Error) Unwrap() error { return e.Err }
