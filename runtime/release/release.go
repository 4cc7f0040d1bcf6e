package release

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

// Release is an AdCP release at the precision buyers and sellers negotiate
// (versioning.mdx, "Version negotiation"): VERSION.RELEASE and, for a
// pre-release, its tag. 3.2.0-beta.5 is the release 3.2-beta.5, and every
// patch of 3.0 (3.0.26) is the release 3.0: patches are not negotiated.
// The zero Release is none.
type Release struct {
	Major, Minor int
	// Pre is the pre-release tag ("beta.5"), "" for a release.
	Pre string
}

// String is the wire value: "3.1", "3.2-beta.5"; "" for the zero Release.
func (r Release) String() string {
	if r.IsZero() {
		return ""
	}
	s := strconv.Itoa(r.Major) + "." + strconv.Itoa(r.Minor)
	if r.Pre != "" {
		s += "-" + r.Pre
	}
	return s
}

// IsZero reports the zero Release (none).
func (r Release) IsZero() bool { return r == Release{} }

// Prerelease reports a pre-release ("3.2-beta.5"), which is served only
// to a buyer that pins it exactly.
func (r Release) Prerelease() bool { return r.Pre != "" }

// Compare orders releases by semantic-version precedence (semver §11):
// by major, then minor; a pre-release comes before its release, and
// pre-releases compare by their dot-separated identifiers (numeric ones
// numerically, below alphanumeric ones). It returns -1, 0 or +1.
func (r Release) Compare(o Release) int {
	switch {
	case r.Major != o.Major:
		return sign(r.Major - o.Major)
	case r.Minor != o.Minor:
		return sign(r.Minor - o.Minor)
	case r.Pre == o.Pre:
		return 0
	case r.Pre == "":
		return 1
	case o.Pre == "":
		return -1
	}
	a, b := strings.Split(r.Pre, "."), strings.Split(o.Pre, ".")
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareIdent(a[i], b[i]); c != 0 {
			return c
		}
	}
	return sign(len(a) - len(b))
}

func compareIdent(a, b string) int {
	an, aNum := numeric(a)
	bn, bNum := numeric(b)
	switch {
	case aNum && bNum:
		if len(a) != len(b) { // no leading zeros: longer is larger
			return sign(len(a) - len(b))
		}
		return strings.Compare(an, bn)
	case aNum:
		return -1
	case bNum:
		return 1
	}
	return strings.Compare(a, b)
}

// numeric reports an all-digit identifier.
func numeric(s string) (string, bool) {
	if s == "" {
		return s, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return s, false
		}
	}
	return s, true
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// maxNumber bounds a major or minor number: AdCP's adcp_major_version is
// 1 to 99, and nothing longer than four digits is a release anyone ships.
const maxNumber = 9999

// FromWire reads a wire value: MAJOR.MINOR or MAJOR.MINOR-PRERELEASE, the
// pattern of core/version-envelope.json's adcp_version ("3.1",
// "3.2-beta.5"). A patch is invalid on the wire, even beside a
// pre-release tag ("3.1.2", "3.1.0-beta.1"), as are "v3.1" and "3"
// (versioning.mdx, "Patches are not negotiated").
func FromWire(s string) (Release, error) {
	r, rest, err := parseMajorMinor(s)
	if err != nil {
		return Release{}, fmt.Errorf("release %q: %w", clip(s), err)
	}
	switch {
	case rest == "":
		return r, nil
	case rest[0] == '.':
		return Release{}, fmt.Errorf("release %q: a patch is not valid on the wire (release precision is MAJOR.MINOR or MAJOR.MINOR-PRERELEASE)", clip(s))
	case rest[0] != '-':
		return Release{}, fmt.Errorf("release %q: want MAJOR.MINOR or MAJOR.MINOR-PRERELEASE", clip(s))
	}
	if !validTag(rest[1:]) {
		return Release{}, fmt.Errorf("release %q: the pre-release tag %q is not letters, digits, dots and hyphens, beginning and ending with a letter or digit", clip(s), clip(rest[1:]))
	}
	r.Pre = rest[1:]
	return r, nil
}

// Of is the release of a published version: "3.2.0-beta.5" is 3.2-beta.5,
// "3.0.26" is 3.0 (a semantic version, MAJOR.MINOR.PATCH with an optional
// pre-release and build metadata, which is dropped). A value already at
// release precision ("3.1") is accepted too. This is how bundle and
// package versions (a generated package's SpecVersion, a manifest's
// published_version) become wire values: never send the meta value itself.
func Of(version string) (Release, error) {
	r, rest, err := parseMajorMinor(version)
	if err != nil {
		return Release{}, fmt.Errorf("version %q: %w", clip(version), err)
	}
	if patch, ok := strings.CutPrefix(rest, "."); ok {
		i := 0
		for i < len(patch) && patch[i] >= '0' && patch[i] <= '9' {
			i++
		}
		if i == 0 || (i > 1 && patch[0] == '0') {
			return Release{}, fmt.Errorf("version %q: the patch is not a number", clip(version))
		}
		rest = patch[i:]
		if build := strings.IndexByte(rest, '+'); build >= 0 {
			if !validTag(rest[build+1:]) {
				return Release{}, fmt.Errorf("version %q: bad build metadata", clip(version))
			}
			rest = rest[:build]
		}
	}
	switch {
	case rest == "":
		return r, nil
	case rest[0] != '-' || !validTag(rest[1:]):
		return Release{}, fmt.Errorf("version %q: want MAJOR.MINOR.PATCH with an optional -PRERELEASE", clip(version))
	}
	r.Pre = rest[1:]
	return r, nil
}

// parseMajorMinor reads "MAJOR.MINOR" at the start of s: numbers without
// leading zeros.
func parseMajorMinor(s string) (Release, string, error) {
	var r Release
	var rest string
	var ok bool
	if r.Major, rest, ok = number(s); !ok {
		return Release{}, "", fmt.Errorf("want MAJOR.MINOR (numbers without leading zeros)")
	}
	if r.Major == 0 {
		return Release{}, "", fmt.Errorf("AdCP majors start at 1")
	}
	if rest, ok = strings.CutPrefix(rest, "."); !ok {
		return Release{}, "", fmt.Errorf("want MAJOR.MINOR, not a major alone")
	}
	if r.Minor, rest, ok = number(rest); !ok {
		return Release{}, "", fmt.Errorf("want MAJOR.MINOR (numbers without leading zeros)")
	}
	return r, rest, nil
}

// number reads a decimal number without leading zeros at the start of s.
func number(s string) (int, string, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || (i > 1 && s[0] == '0') || i > 4 {
		return 0, s, false
	}
	n, _ := strconv.Atoi(s[:i])
	return n, s[i:], n <= maxNumber
}

// validTag reports a pre-release tag or build metadata the wire pattern
// admits: [a-zA-Z0-9] first and last, [a-zA-Z0-9.-] between.
func validTag(t string) bool {
	if t == "" || len(t) > 64 {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alnum && ((c != '.' && c != '-') || i == 0 || i == len(t)-1) {
			return false
		}
	}
	return true
}

// clip bounds and cleans a buyer-sent value quoted in a message.
func clip(s string) string { return untrusted.SanitizeTruncate(s, 32) }
