package release

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The request members a buyer declares its release with
// (core/version-envelope.json).
const (
	// MemberVersion is adcp_version: the buyer's pin at release precision
	// on a request, the release served on a response.
	MemberVersion = "adcp_version"
	// MemberMajor is adcp_major_version, the integer major of 3.0,
	// deprecated from 3.1 and still honoured through 3.x.
	MemberMajor = "adcp_major_version"
)

// Set is the releases a seller speaks and the one it serves a request
// that declares none in. Its methods are the resolution rules of
// versioning.mdx, in one place for the seller and the buyer's pre-flight.
type Set struct {
	// Releases lists every release served, in any order.
	Releases []Release
	// Default serves a request that declares no release. The zero value
	// means the highest release of Releases that is not a pre-release (the
	// highest pre-release when all are).
	Default Release
	// MajorOnly, when set (a release of Releases), serves a request that
	// declares adcp_major_version of its major and no adcp_version. The
	// zero value serves it in the highest release of that major, as
	// versioning.mdx says. A buyer that declares the major alone predates
	// release-precision negotiation (3.0 had adcp_major_version only), and
	// the highest release may carry what it cannot read (3.1 moved the
	// media buy's status to media_buy_status): a seller whose 3.0 buyers
	// must keep their answers serves them its 3.0 here, as the JavaScript
	// SDK's seller serves the lowest release of the major.
	MajorOnly Release
}

// Versions is the set as supported_versions lists it: wire values,
// ascending, without duplicates.
func (s Set) Versions() []string {
	rs := s.sorted()
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}

// Majors is the set as the legacy major_versions lists it: the majors,
// ascending.
func (s Set) Majors() []int {
	var out []int
	for _, r := range s.sorted() {
		if !slices.Contains(out, r.Major) {
			out = append(out, r.Major)
		}
	}
	return out
}

// DefaultRelease is the release a request that declares none is served in
// (see Default); the zero Release for an empty set.
func (s Set) DefaultRelease() Release {
	if !s.Default.IsZero() {
		return s.Default
	}
	return highest(s.sorted(), func(Release) bool { return true })
}

// Contains reports a release of the set.
func (s Set) Contains(r Release) bool { return slices.Contains(s.Releases, r) }

// sorted is Releases ascending, without duplicates or zero values.
func (s Set) sorted() []Release {
	out := make([]Release, 0, len(s.Releases))
	for _, r := range s.Releases {
		if !r.IsZero() && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, Release.Compare)
	return out
}

// highest returns the highest release of rs (ascending) that ok admits,
// preferring releases to pre-releases: a pre-release only when ok admits
// no release.
func highest(rs []Release, ok func(Release) bool) Release {
	var pre Release
	for i := len(rs) - 1; i >= 0; i-- {
		switch r := rs[i]; {
		case !ok(r):
		case !r.Prerelease():
			return r
		case pre.IsZero():
			pre = r
		}
	}
	return pre
}

// Resolve picks the release to serve a request in from what it declares:
// version and major are the raw JSON of its adcp_version and
// adcp_major_version members, nil when absent. The rules
// (versioning.mdx, "Server resolves", "Pre-release pins", "Dual-emit"):
//
//   - adcp_version must be a wire value (FromWire: no patch) and, when
//     adcp_major_version is sent too, of that major;
//   - a pin the set holds is served as it is (a release pin wins over a
//     pre-release of the same release);
//   - a pre-release pin is matched exactly, never range-resolved;
//   - a release pin the set does not hold is served in the highest
//     release of its major below it, never in a pre-release;
//   - adcp_major_version alone is served in the highest release of that
//     major (a pre-release only when the major has nothing else), or in
//     MajorOnly when it is of that major;
//   - neither is served in the default release.
//
// Anything else (another major, every release of the major above the pin,
// a malformed value, two values that disagree) is an *Unsupported, the
// details of VERSION_UNSUPPORTED.
func (s Set) Resolve(version, major json.RawMessage) (Release, *Unsupported) {
	rs := s.sorted()
	refuse := func(field, reason string) *Unsupported {
		return &Unsupported{SupportedVersions: s.Versions(), SupportedMajors: s.Majors(), Field: field, Reason: reason}
	}
	m, hasMajor := 0, major != nil
	if hasMajor {
		var ok bool
		if m, ok = majorOf(major); !ok {
			return Release{}, refuse(MemberMajor, fmt.Sprintf("adcp_major_version %s is not a major version (an integer from 1 to 99)", quoteRaw(major)))
		}
	}
	if version == nil {
		if !hasMajor {
			if d := s.DefaultRelease(); !d.IsZero() {
				return d, nil
			}
			return Release{}, refuse("", "this agent serves no release")
		}
		if s.MajorOnly.Major == m && slices.Contains(rs, s.MajorOnly) {
			return s.MajorOnly, nil
		}
		if r := highest(rs, func(r Release) bool { return r.Major == m }); !r.IsZero() {
			return r, nil
		}
		u := refuse(MemberMajor, fmt.Sprintf("adcp_major_version %d is not served: this agent speaks %s", m, s.describe()))
		u.Major = m
		return Release{}, u
	}
	str, isString := wire.Lenient(version).AsString()
	if !isString {
		return Release{}, refuse(MemberVersion, fmt.Sprintf("adcp_version %s is not a string", quoteRaw(version)))
	}
	pin, err := FromWire(str)
	if err != nil {
		return Release{}, refuse(MemberVersion, fmt.Sprintf("adcp_version: %v", err))
	}
	fail := func(field, reason string) (Release, *Unsupported) {
		u := refuse(field, reason)
		u.Version = pin.String()
		if hasMajor {
			u.Major = m
		}
		return Release{}, u
	}
	if hasMajor && m != pin.Major {
		return fail(MemberMajor, fmt.Sprintf("adcp_version %q is of major %d and adcp_major_version is %d: they must agree", pin, pin.Major, m))
	}
	if slices.Contains(rs, pin) {
		return pin, nil
	}
	if pin.Prerelease() {
		return fail(MemberVersion, fmt.Sprintf("adcp_version %q is a pre-release, served only when listed exactly: this agent speaks %s", pin, s.describe()))
	}
	if r := highest(rs, func(r Release) bool { return r.Major == pin.Major && !r.Prerelease() && r.Compare(pin) < 0 }); !r.IsZero() {
		return r, nil
	}
	return fail(MemberVersion, fmt.Sprintf("adcp_version %q is not served: this agent speaks %s", pin, s.describe()))
}

// describe lists the set for a message: "3.0, 3.1".
func (s Set) describe() string {
	if v := s.Versions(); len(v) > 0 {
		return strings.Join(v, ", ")
	}
	return "no release"
}

// majorOf reads adcp_major_version: an integer from 1 to 99.
func majorOf(raw json.RawMessage) (int, bool) {
	v := wire.Lenient(raw)
	if !v.IsNumber() {
		return 0, false
	}
	f, ok := v.Number()
	if !ok || f != math.Trunc(f) || f < 1 || f > 99 {
		return 0, false
	}
	return int(f), true
}

// quoteRaw quotes a buyer-sent JSON value in a message, bounded.
func quoteRaw(raw json.RawMessage) string { return clip(strings.TrimSpace(string(raw))) }

// Unsupported is a release a seller cannot serve: what the buyer declared
// and what the seller speaks, the details of VERSION_UNSUPPORTED
// (error-details/version-unsupported.json, 3.1 and later). Buyers pick a
// value of SupportedVersions and retry; the seller never serves another
// release than the one asked for silently.
type Unsupported struct {
	// Version is the buyer's adcp_version, when it is a wire value.
	Version string `json:"adcp_version,omitempty"`
	// Major is the buyer's adcp_major_version, when it is one.
	Major int `json:"adcp_major_version,omitempty"`
	// SupportedVersions are the seller's releases, ascending
	// (authoritative).
	SupportedVersions []string `json:"supported_versions"`
	// SupportedMajors are their majors (deprecated, sent through 3.x).
	SupportedMajors []int `json:"supported_majors,omitempty"`
	// BuildVersion is the seller's build ("3.1.2+vendor.42"), advisory.
	BuildVersion string `json:"build_version,omitempty"`
	// Field is the request member at fault (MemberVersion or
	// MemberMajor), Reason a sentence saying why; neither is part of the
	// details.
	Field  string `json:"-"`
	Reason string `json:"-"`
}

func (u *Unsupported) Error() string {
	if u.Reason != "" {
		return u.Reason
	}
	return "version unsupported: this agent speaks " + strings.Join(u.SupportedVersions, ", ")
}
