package release

import (
	"encoding/json"
	"testing"
)

// FuzzFromWire: FromWire and Of never panic, and what they accept prints back
// as a wire value FromWire reads to the same release.
func FuzzFromWire(f *testing.F) {
	for _, s := range []string{"3.1", "3.2-beta.5", "3.1.2", "3.2.0-beta.5", "v3.1", "3", "3.1-", "3.1.2+x", "99.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (Release, error){FromWire, Of} {
			r, err := parse(s)
			if err != nil {
				continue
			}
			back, err := FromWire(r.String())
			if err != nil || back != r {
				t.Fatalf("%q read as %v, whose wire value %q reads as %v, %v", s, r, r.String(), back, err)
			}
		}
	})
}

// FuzzResolve: any two members resolve to a release of the set or to the
// refusal, never a panic.
func FuzzResolve(f *testing.F) {
	f.Add(`"3.1"`, `3`)
	f.Add(`"3.2-beta.5"`, ``)
	f.Add(``, `99`)
	f.Add(`3`, `"3"`)
	s := Set{Releases: []Release{{3, 0, ""}, {3, 1, ""}, {3, 2, "beta.5"}}}
	f.Fuzz(func(t *testing.T, version, major string) {
		got, u := s.Resolve(raw(version), raw(major))
		if (u == nil) == got.IsZero() {
			t.Fatalf("Resolve(%q, %q) = %v, %v", version, major, got, u)
		}
		if u == nil && !s.Contains(got) {
			t.Fatalf("Resolve(%q, %q) served %v, not in the set", version, major, got)
		}
		if u != nil {
			if _, err := json.Marshal(u); err != nil {
				t.Fatal(err)
			}
		}
	})
}
