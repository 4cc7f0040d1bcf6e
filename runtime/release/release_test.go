package release

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestFromWire(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Release
		err  string
	}{
		{in: "3.0", want: Release{3, 0, ""}},
		{in: "3.1", want: Release{3, 1, ""}},
		{in: "3.2-beta.5", want: Release{3, 2, "beta.5"}},
		{in: "3.1-rc.1", want: Release{3, 1, "rc.1"}},
		{in: "3.1-beta", want: Release{3, 1, "beta"}},
		{in: "4.0", want: Release{4, 0, ""}},
		{in: "10.12", want: Release{10, 12, ""}},
		// versioning.mdx: "3.1.2", "3.1.0-beta.1", "v3.1", and "3" are
		// all invalid wire values.
		{in: "3.1.2", err: "a patch is not valid on the wire"},
		{in: "3.1.0-beta.1", err: "a patch is not valid on the wire"},
		{in: "v3.1", err: "want MAJOR.MINOR"},
		{in: "3", err: "not a major alone"},
		{in: "", err: "want MAJOR.MINOR"},
		{in: "03.1", err: "leading zeros"},
		{in: "3.01", err: "leading zeros"},
		{in: "3.1-", err: "pre-release tag"},
		{in: "3.1-beta.", err: "pre-release tag"},
		{in: "3.1-.beta", err: "pre-release tag"},
		{in: "3.1-bet@", err: "pre-release tag"},
		{in: "3.1 ", err: "want MAJOR.MINOR"},
		{in: "3.1+build", err: "want MAJOR.MINOR"},
		{in: "99999.0", err: "leading zeros"},
		{in: "0.1", err: "majors start at 1"},
	} {
		got, err := FromWire(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("FromWire(%q) = %v, %v; want an error saying %q", tc.in, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("FromWire(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		case tc.err == "" && got.String() != tc.in:
			t.Errorf("FromWire(%q).String() = %q", tc.in, got.String())
		}
	}
}

func TestOf(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		// versioning.mdx: SDKs keying bundles by full semver normalize
		// to release precision ("3.1.0-beta.1" is "3.1-beta.1").
		{in: "3.1.0-beta.1", want: "3.1-beta.1"},
		{in: "3.2.0-beta.5", want: "3.2-beta.5"},
		{in: "3.2.0-beta.3", want: "3.2-beta.3"},
		{in: "3.0.26", want: "3.0"},
		{in: "3.0.0", want: "3.0"},
		{in: "3.1.19", want: "3.1"},
		{in: "2.5.3", want: "2.5"},
		{in: "3.1.2+scope3.deploy.4821", want: "3.1"},
		{in: "3.1.0-beta.3+sha.a1b2c3d", want: "3.1-beta.3"},
		{in: "3.90.0-test", want: "3.90-test"},
		{in: "3.1", want: "3.1"},
		{in: "3.2-beta.5", want: "3.2-beta.5"},
		{in: "adcpgen-core-2", err: "want MAJOR.MINOR"},
		{in: "3.1.x", err: "patch is not a number"},
		{in: "3.1.02", err: "patch is not a number"},
		{in: "3.1.2+", err: "build metadata"},
		{in: "3.1.2 beta", err: "want MAJOR.MINOR.PATCH"},
	} {
		got, err := Of(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Of(%q) = %v, %v; want an error saying %q", tc.in, got, err, tc.err)
		case tc.err == "" && (err != nil || got.String() != tc.want):
			t.Errorf("Of(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCompare(t *testing.T) {
	// Ascending, semver §11 precedence at release precision.
	order := []string{"2.5", "3.0", "3.1-alpha", "3.1-alpha.1", "3.1-alpha.beta", "3.1-beta", "3.1-beta.2", "3.1-beta.11", "3.1-rc.1", "3.1", "3.2-beta.3", "3.2-beta.5", "3.2", "3.10", "4.0"}
	for i, a := range order {
		for j, b := range order {
			ra, rb := must(t, a), must(t, b)
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := ra.Compare(rb); got != want {
				t.Errorf("%s.Compare(%s) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func must(t *testing.T, s string) Release {
	t.Helper()
	r, err := FromWire(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func set(t *testing.T, def string, rs ...string) Set {
	t.Helper()
	s := Set{}
	for _, r := range rs {
		s.Releases = append(s.Releases, must(t, r))
	}
	if def != "" {
		s.Default = must(t, def)
	}
	return s
}

// raw is a member's JSON, nil for "" (absent).
func raw(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return json.RawMessage(s)
}

// TestResolve replays versioning.mdx's own examples and rules.
func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		name           string
		server         []string
		def            string
		majorOnly      string
		version, major string // raw JSON; "" absent
		want           string // the release served, "" for VERSION_UNSUPPORTED
		field          string // the member at fault
		reason         string
	}{
		// "Exact match → serve in that release."
		{name: "exact", server: []string{"3.0", "3.1"}, version: `"3.0"`, want: "3.0"},
		{name: "exact with the major mirrored", server: []string{"3.0", "3.1"}, version: `"3.1"`, major: `3`, want: "3.1"},
		{name: "exact pre-release", server: []string{"3.0", "3.1", "3.2-beta.5"}, version: `"3.2-beta.5"`, major: `3`, want: "3.2-beta.5"},
		// "Server ["3.1-beta", "3.1"] + pin "3.1" → serve "3.1"."
		{name: "release over pre-release", server: []string{"3.1-beta", "3.1"}, version: `"3.1"`, want: "3.1"},
		// "server ["3.0", "3.2"] + pin "3.1" → serve "3.0"."
		{name: "gap downshift", server: []string{"3.0", "3.2"}, version: `"3.1"`, want: "3.0"},
		// "server's max < pin"
		{name: "max below the pin", server: []string{"3.0", "3.1"}, version: `"3.2"`, want: "3.1"},
		// "Servers MUST NOT downshift a release pin onto a pre-release"
		{name: "never onto a pre-release", server: []string{"3.0", "3.1-beta"}, version: `"3.1"`, want: "3.0"},
		{name: "never onto a lower pre-release", server: []string{"3.0", "3.1-beta"}, version: `"3.2"`, want: "3.0"},
		{name: "only a pre-release below", server: []string{"3.1-beta"}, version: `"3.1"`, field: "adcp_version", reason: "is not served"},
		// "a buyer pinning "3.1-beta" against a server that lists
		// ["3.0", "3.1"] ... gets VERSION_UNSUPPORTED, not a downshift"
		{name: "pre-release exact only", server: []string{"3.0", "3.1"}, version: `"3.1-beta"`, field: "adcp_version", reason: "pre-release"},
		{name: "another pre-release", server: []string{"3.0", "3.2-beta.5"}, version: `"3.2-beta.3"`, field: "adcp_version", reason: "pre-release"},
		// "sub-min: every supported release is strictly greater"
		{name: "sub-min", server: []string{"3.1", "3.2"}, version: `"3.0"`, field: "adcp_version", reason: "is not served"},
		// "Different major → VERSION_UNSUPPORTED"
		{name: "another major", server: []string{"3.0", "3.1"}, version: `"4.0"`, major: `4`, field: "adcp_version", reason: "is not served"},
		{name: "an older major", server: []string{"3.0", "3.1"}, version: `"2.5"`, field: "adcp_version", reason: "is not served"},
		{name: "the grader's 99.0", server: []string{"3.0", "3.1", "3.2-beta.5"}, version: `"99.0"`, major: `3`, field: "adcp_major_version", reason: "must agree"},
		// "When both fields are present and disagree at the major level,
		// the server MUST treat the request as malformed and return
		// VERSION_UNSUPPORTED."
		{name: "disagreeing majors", server: []string{"3.0", "3.1"}, version: `"3.1"`, major: `4`, field: "adcp_major_version", reason: "must agree"},
		{name: "the grader's major 99", server: []string{"3.0"}, version: `"3.2-beta.5"`, major: `99`, field: "adcp_major_version", reason: "must agree"},
		// "Omitted → server uses its default release"
		{name: "default", server: []string{"3.0", "3.1"}, def: "3.0", want: "3.0"},
		{name: "default unset: the highest release", server: []string{"3.0", "3.1", "3.2-beta.5"}, want: "3.1"},
		{name: "default unset, only pre-releases", server: []string{"3.2-beta.3", "3.2-beta.5"}, want: "3.2-beta.5"},
		// "if only adcp_major_version was sent, the highest supported
		// release in that major"
		{name: "major only", server: []string{"3.0", "3.1"}, def: "3.0", major: `3`, want: "3.1"},
		{name: "major only, not a pre-release", server: []string{"3.0", "3.1", "3.2-beta.5"}, def: "3.0", major: `3`, want: "3.1"},
		{name: "major only, a beta-only seller", server: []string{"3.2-beta.5"}, major: `3`, want: "3.2-beta.5"},
		{name: "major only as 3.0", server: []string{"3.0"}, major: `3.0`, want: "3.0"},
		{name: "another major only", server: []string{"3.0", "3.1"}, major: `99`, field: "adcp_major_version", reason: "is not served"},
		{name: "major only, the seller's legacy release", server: []string{"3.0", "3.1"}, majorOnly: "3.0", major: `3`, want: "3.0"},
		{name: "the legacy release, not for a pin", server: []string{"3.0", "3.1"}, majorOnly: "3.0", version: `"3.1"`, major: `3`, want: "3.1"},
		{name: "the legacy release, of another major", server: []string{"3.0", "4.0", "4.1"}, majorOnly: "3.0", major: `4`, want: "4.1"},
		// "3.1.2", "3.1.0-beta.1", "v3.1", and "3" are invalid wire values.
		{name: "patch", server: []string{"3.0", "3.1"}, version: `"3.1.2"`, field: "adcp_version", reason: "patch"},
		{name: "patch on a pre-release", server: []string{"3.1-beta.1"}, version: `"3.1.0-beta.1"`, field: "adcp_version", reason: "patch"},
		{name: "v prefix", server: []string{"3.1"}, version: `"v3.1"`, field: "adcp_version", reason: "MAJOR.MINOR"},
		{name: "major as a string", server: []string{"3.1"}, version: `"3"`, field: "adcp_version", reason: "major alone"},
		{name: "not a string", server: []string{"3.1"}, version: `3.1`, field: "adcp_version", reason: "not a string"},
		{name: "null", server: []string{"3.1"}, version: `null`, field: "adcp_version", reason: "not a string"},
		{name: "fractional major", server: []string{"3.1"}, major: `3.5`, field: "adcp_major_version", reason: "not a major version"},
		{name: "major as a string", server: []string{"3.1"}, major: `"3"`, field: "adcp_major_version", reason: "not a major version"},
		{name: "major 0", server: []string{"3.1"}, major: `0`, field: "adcp_major_version", reason: "not a major version"},
		{name: "major 100", server: []string{"3.1"}, major: `100`, field: "adcp_major_version", reason: "not a major version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := set(t, tc.def, tc.server...)
			if tc.majorOnly != "" {
				s.MajorOnly = must(t, tc.majorOnly)
			}
			got, u := s.Resolve(raw(tc.version), raw(tc.major))
			if tc.want != "" {
				if u != nil || got.String() != tc.want {
					t.Fatalf("served %q, %v; want %q", got, u, tc.want)
				}
				return
			}
			if u == nil {
				t.Fatalf("served %q; want VERSION_UNSUPPORTED", got)
			}
			if u.Field != tc.field || !strings.Contains(u.Reason, tc.reason) {
				t.Errorf("refused at %q: %q; want %q saying %q", u.Field, u.Reason, tc.field, tc.reason)
			}
			if !slices.Equal(u.SupportedVersions, s.Versions()) || len(u.SupportedMajors) == 0 {
				t.Errorf("details list %v %v, want the server's %v", u.SupportedVersions, u.SupportedMajors, s.Versions())
			}
		})
	}
}

// TestUnsupportedDetails: the details of VERSION_UNSUPPORTED as
// versioning.mdx shows them (build_version is the seller's to add).
func TestUnsupportedDetails(t *testing.T) {
	s := set(t, "", "3.1", "3.0")
	_, u := s.Resolve(raw(`"4.0"`), raw(`4`))
	if u == nil {
		t.Fatal("4.0 served")
	}
	u.BuildVersion = "3.1.2+vendor.42"
	got, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"adcp_version":"4.0","adcp_major_version":4,"supported_versions":["3.0","3.1"],"supported_majors":[3],"build_version":"3.1.2+vendor.42"}`
	if string(got) != want {
		t.Errorf("details\n got %s\nwant %s", got, want)
	}
	// A value that is no release is left out of the details, whose
	// adcp_version must match the wire pattern.
	_, u = s.Resolve(raw(`"3.1.2"`), nil)
	if got, _ := json.Marshal(u); string(got) != `{"supported_versions":["3.0","3.1"],"supported_majors":[3]}` {
		t.Errorf("details of a patch pin: %s", got)
	}
}

func TestSetLists(t *testing.T) {
	s := set(t, "", "3.2-beta.5", "3.0", "3.1", "3.0")
	if got := s.Versions(); !slices.Equal(got, []string{"3.0", "3.1", "3.2-beta.5"}) {
		t.Errorf("Versions = %v", got)
	}
	if got := s.Majors(); !slices.Equal(got, []int{3}) {
		t.Errorf("Majors = %v", got)
	}
	if got := s.DefaultRelease().String(); got != "3.1" {
		t.Errorf("DefaultRelease = %q", got)
	}
	if got := (Set{}).DefaultRelease(); !got.IsZero() {
		t.Errorf("the empty set's default is %v", got)
	}
	if _, u := (Set{}).Resolve(nil, nil); u == nil {
		t.Error("the empty set served a release")
	}
}
