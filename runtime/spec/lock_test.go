package spec

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	sumA = "04481e277089bebe551d3dc1294faab56aa876a7c08e0f010a8ca6ba41a06af4"
	sumB = "7e7210b4e12999244a2fcec49f18f4f5e8d5b07be22c6e4fc17407adb1714d6e"
	sumC = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
)

func TestLockMarshalIsSortedAndStable(t *testing.T) {
	l := &Lock{}
	// Inserted out of order: semver precedence, not text order, decides.
	l.Set(LockEntry{Version: "3.2.0-beta.3", SHA256: sumC, Source: "s3"})
	l.Set(LockEntry{Version: "3.0.26", SHA256: sumB, Source: "s2"})
	l.Set(LockEntry{Version: "3.0.9", SHA256: sumA})
	l.Set(LockEntry{Version: "3.2.0", SHA256: sumA})
	want := `{
  "specs": [
    {
      "version": "3.0.9",
      "sha256": "` + sumA + `"
    },
    {
      "version": "3.0.26",
      "sha256": "` + sumB + `",
      "source": "s2"
    },
    {
      "version": "3.2.0-beta.3",
      "sha256": "` + sumC + `",
      "source": "s3"
    },
    {
      "version": "3.2.0",
      "sha256": "` + sumA + `"
    }
  ]
}
`
	got := string(l.Marshal())
	if got != want {
		t.Fatalf("Marshal:\n%s\nwant:\n%s", got, want)
	}
	back, err := ParseLock([]byte(got), "adcp.lock")
	if err != nil {
		t.Fatal(err)
	}
	if again := string(back.Marshal()); again != want {
		t.Fatalf("round trip changed the bytes:\n%s", again)
	}
	if string((&Lock{}).Marshal()) != "{\n  \"specs\": []\n}\n" {
		t.Fatalf("empty lock: %q", (&Lock{}).Marshal())
	}
}

func TestLockSetReplaces(t *testing.T) {
	l := &Lock{}
	l.Set(LockEntry{Version: "3.0.26", SHA256: sumA})
	l.Set(LockEntry{Version: "3.0.26", SHA256: sumB})
	if len(l.Specs) != 1 || l.Specs[0].SHA256 != sumB {
		t.Fatalf("Set did not replace: %+v", l.Specs)
	}
	if _, ok := l.Lookup("3.0.0"); ok {
		t.Fatal("Lookup found a version never set")
	}
}

func TestParseLockSingleEntryForm(t *testing.T) {
	l, err := ParseLock([]byte(`{"version": "3.0.26", "sha256": "`+sumB+`", "source": "https://x/protocol/3.0.26.tgz"}`), "adcp.lock")
	if err != nil {
		t.Fatal(err)
	}
	e, ok := l.Lookup("3.0.26")
	if !ok || e.SHA256 != sumB || e.Source != "https://x/protocol/3.0.26.tgz" || len(l.Specs) != 1 {
		t.Fatalf("got %+v", l.Specs)
	}
}

func TestParseLockRefuses(t *testing.T) {
	entry := func(v, sum string) string { return `{"version":"` + v + `","sha256":"` + sum + `"}` }
	for _, tc := range []struct {
		name, data, want string
	}{
		{"not json", `version 3.0.26`, "adcp.lock: invalid character"},
		{"unknown field", `{"specs":[{"version":"3.0.26","sha265":"` + sumB + `"}]}`, `unknown field "sha265"`},
		{"unknown top field", `{"spec":[]}`, `unknown field "spec"`},
		{"trailing data", `{"specs":[]} {}`, "data after the JSON object"},
		{"bad version", `{"specs":[` + entry("v3.0.26", sumB) + `]}`, `/specs/0/version: version "v3.0.26" is not MAJOR.MINOR.PATCH`},
		{"path in version", `{"specs":[` + entry("../../etc", sumB) + `]}`, `/specs/0/version`},
		{"short sum", `{"specs":[` + entry("3.0.26", "abc") + `]}`, `/specs/0/sha256: "abc" is not 64 lowercase hex digits`},
		{"upper-case sum", `{"specs":[` + entry("3.0.26", strings.ToUpper(sumB)) + `]}`, `/specs/0/sha256`},
		{"prefixed sum", `{"specs":[` + entry("3.0.26", "sha256:"+sumB) + `]}`, `/specs/0/sha256`},
		{"duplicate", `{"specs":[` + entry("3.0.26", sumB) + `,` + entry("3.0.0", sumA) + `,` + entry("3.0.26", sumA) + `]}`, `/specs/2/version: 3.0.26 is listed twice`},
		{"both forms", `{"specs":[],"version":"3.0.26","sha256":"` + sumB + `"}`, "use one form"},
		{"single without sum", `{"version":"3.0.26"}`, `/sha256: "" is not 64 lowercase hex digits`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLock([]byte(tc.data), "adcp.lock")
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "lock file adcp.lock: ") {
				t.Fatalf("error %q, want it to name the file and contain %q", err, tc.want)
			}
		})
	}
}

func TestUpdateLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "adcp.lock")

	changed, err := UpdateLock(path, LockEntry{Version: "3.0.26", SHA256: sumB, Source: "mirror/protocol/3.0.26.tgz"})
	if err != nil || !changed {
		t.Fatalf("create: changed=%v err=%v", changed, err)
	}
	changed, err = UpdateLock(path, LockEntry{Version: "3.0.0", SHA256: sumA})
	if err != nil || !changed {
		t.Fatalf("add: changed=%v err=%v", changed, err)
	}
	before, _ := os.ReadFile(path)
	// Same version and sum from elsewhere: nothing to change, source kept.
	changed, err = UpdateLock(path, LockEntry{Version: "3.0.26", SHA256: sumB, Source: "https://elsewhere"})
	if err != nil || changed {
		t.Fatalf("same entry: changed=%v err=%v", changed, err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Fatalf("unchanged entry rewrote the file:\n%s", after)
	}
	// Another sum for a locked version is refused, like go.sum.
	_, err = UpdateLock(path, LockEntry{Version: "3.0.26", SHA256: sumC, Source: "https://evil/protocol/3.0.26.tgz"})
	var mm *LockMismatchError
	if !errors.As(err, &mm) {
		t.Fatalf("mismatch: got %v, want *LockMismatchError", err)
	}
	for _, part := range []string{path, "3.0.26", sumB, sumC, "https://evil/protocol/3.0.26.tgz"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("mismatch error %q does not name %q", err, part)
		}
	}
	l, err := ReadLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Specs) != 2 || l.Specs[0].Version != "3.0.0" || l.Specs[1].Version != "3.0.26" || l.Specs[1].SHA256 != sumB {
		t.Fatalf("lock now %+v", l.Specs)
	}
	assertNoTempFiles(t, dir)

	if _, err := UpdateLock(path, LockEntry{Version: "3.0", SHA256: sumA}); err == nil {
		t.Error("UpdateLock accepted a bad version")
	}
	if _, err := UpdateLock(path, LockEntry{Version: "3.0.1", SHA256: "x"}); err == nil {
		t.Error("UpdateLock accepted a bad sum")
	}
}

func TestReadLockMissingAndBroken(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.lock")
	if _, err := ReadLock(missing); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ReadLock(missing) = %v, want ErrNotExist", err)
	}
	if l, err := readLockIfExists(missing); l != nil || err != nil {
		t.Fatalf("readLockIfExists(missing) = %v, %v", l, err)
	}
	if l, err := readLockIfExists(""); l != nil || err != nil {
		t.Fatalf("readLockIfExists(\"\") = %v, %v", l, err)
	}
	broken := filepath.Join(dir, "broken.lock")
	os.WriteFile(broken, []byte("{"), 0o644)
	if _, err := readLockIfExists(broken); err == nil || !strings.Contains(err.Error(), broken) {
		t.Fatalf("broken lock: %v", err)
	}
	// Refuse to write into a missing folder rather than create it.
	if err := WriteLock(filepath.Join(dir, "no", "adcp.lock"), &Lock{}); err == nil {
		t.Fatal("WriteLock into a missing folder succeeded")
	}
}

func FuzzParseLock(f *testing.F) {
	f.Add([]byte(`{"specs":[{"version":"3.0.26","sha256":"` + sumB + `","source":"x"}]}`))
	f.Add([]byte(`{"version":"3.0.0","sha256":"` + sumA + `"}`))
	f.Add([]byte(`{"specs":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLock(data, "fuzz.lock")
		if err != nil {
			return
		}
		// Whatever parses re-encodes to a lock that parses to the same bytes.
		out := l.Marshal()
		back, err := ParseLock(out, "fuzz.lock")
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out, err)
		}
		if string(back.Marshal()) != string(out) {
			t.Fatalf("unstable: %q vs %q", out, back.Marshal())
		}
		for _, e := range l.Specs {
			if !IsVersion(e.Version) || !isSHA256Hex(e.SHA256) {
				t.Fatalf("invalid entry accepted: %+v", e)
			}
		}
	})
}

// assertNoTempFiles fails when an atomic write left a temporary file.
func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}
