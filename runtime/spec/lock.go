package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
)

// LockFileName is the lock file adcpgen fetch writes by default, in the
// current directory.
const LockFileName = "adcp.lock"

// maxLockBytes bounds a lock file; one entry takes about 150 bytes.
const maxLockBytes = 1 << 20

// Lock pins spec versions to bundle checksums, as go.sum pins modules. On
// disk it is JSON:
//
//	{
//	  "specs": [
//	    {
//	      "version": "3.0.26",
//	      "sha256": "7e7210b4e12999244a2fcec49f18f4f5e8d5b07be22c6e4fc17407adb1714d6e",
//	      "source": "https://adcontextprotocol.org/protocol/3.0.26.tgz"
//	    }
//	  ]
//	}
//
// One entry per version, sorted by semver precedence (3.0.9 before 3.0.26,
// 3.2.0-beta.3 before 3.2.0), indented by two spaces and ending in a newline,
// so the file is byte-stable and diffs cleanly. sha256 is the lowercase hex
// sha256 of the .tgz bundle, as in its .sha256 sidecar; source records where
// fetch found the bundle and is informational only. A hand-written single
// entry, {"version": ..., "sha256": ..., "source": ...}, reads as a lock of
// one entry. Unknown fields are refused, so a misspelt key cannot silently
// turn a check off.
type Lock struct {
	Specs []LockEntry `json:"specs"`
}

// LockEntry pins one version.
type LockEntry struct {
	Version string `json:"version"`
	SHA256  string `json:"sha256"`
	Source  string `json:"source,omitempty"`
}

// LockMismatchError reports a bundle whose checksum differs from the one
// the lock file pins for its version.
type LockMismatchError struct {
	File    string // the lock file
	Version string
	Locked  string // sha256 the lock file pins
	Got     string // sha256 of the bundle found
	Source  string // where that bundle was found
}

func (e *LockMismatchError) Error() string {
	src := e.Source
	if src == "" {
		src = "the bundle"
	}
	return fmt.Sprintf("%s: spec %s is locked to sha256 %s, but %s has sha256 %s; "+
		"if the new bundle is legitimate, remove the %s entry from %s and fetch again",
		e.File, e.Version, e.Locked, src, e.Got, e.Version, e.File)
}

// ParseLock decodes a lock file; name is used in errors.
func ParseLock(data []byte, name string) (*Lock, error) {
	var raw struct {
		Specs   []LockEntry `json:"specs"`
		Version *string     `json:"version"`
		SHA256  *string     `json:"sha256"`
		Source  *string     `json:"source"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("lock file %s: %w", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("lock file %s: data after the JSON object", name)
	}
	l := &Lock{Specs: raw.Specs}
	single := raw.Version != nil || raw.SHA256 != nil || raw.Source != nil
	if single {
		if raw.Specs != nil {
			return nil, fmt.Errorf("lock file %s: has both \"specs\" and a top-level entry; use one form", name)
		}
		l.Specs = []LockEntry{{Version: deref(raw.Version), SHA256: deref(raw.SHA256), Source: deref(raw.Source)}}
	}
	seen := map[string]bool{}
	for i, e := range l.Specs {
		ptr := fmt.Sprintf("/specs/%d", i)
		if single {
			ptr = ""
		}
		if err := CheckVersion(e.Version); err != nil {
			return nil, fmt.Errorf("lock file %s: %s/version: %w", name, ptr, err)
		}
		if !isSHA256Hex(e.SHA256) {
			return nil, fmt.Errorf("lock file %s: %s/sha256: %q is not 64 lowercase hex digits", name, ptr, e.SHA256)
		}
		if seen[e.Version] {
			return nil, fmt.Errorf("lock file %s: %s/version: %s is listed twice", name, ptr, e.Version)
		}
		seen[e.Version] = true
	}
	l.sort()
	return l, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Lookup returns the entry for version.
func (l *Lock) Lookup(version string) (LockEntry, bool) {
	for _, e := range l.Specs {
		if e.Version == version {
			return e, true
		}
	}
	return LockEntry{}, false
}

// Set adds e, replacing any entry for the same version.
func (l *Lock) Set(e LockEntry) {
	for i := range l.Specs {
		if l.Specs[i].Version == e.Version {
			l.Specs[i] = e
			return
		}
	}
	l.Specs = append(l.Specs, e)
	l.sort()
}

func (l *Lock) sort() {
	sort.SliceStable(l.Specs, func(i, j int) bool {
		return compareVersions(l.Specs[i].Version, l.Specs[j].Version) < 0
	})
}

// Marshal encodes the lock in its stable on-disk form.
func (l *Lock) Marshal() []byte {
	out := Lock{Specs: l.Specs}
	if out.Specs == nil {
		out.Specs = []LockEntry{}
	}
	out.sort()
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	return append(data, '\n')
}

// ReadLock reads and parses a lock file. A missing file is an error
// wrapping fs.ErrNotExist.
func ReadLock(path string) (*Lock, error) {
	data, err := readFileMax(path, maxLockBytes)
	if err != nil {
		return nil, fmt.Errorf("lock file: %w", err)
	}
	return ParseLock(data, path)
}

// readLockIfExists reads path, returning nil when path is "" or absent.
func readLockIfExists(path string) (*Lock, error) {
	if path == "" {
		return nil, nil
	}
	l, err := ReadLock(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return l, err
}

// WriteLock writes l to path atomically.
func WriteLock(path string, l *Lock) error {
	if err := writeFileAtomic(path, l.Marshal(), 0o644); err != nil {
		return fmt.Errorf("lock file %s: %w", path, err)
	}
	return nil
}

// UpdateLock records e in the lock file at path, creating the file when
// absent. An entry for the same version and checksum is left as it is
// (changed is false); one with another checksum is a *LockMismatchError,
// never overwritten.
func UpdateLock(path string, e LockEntry) (changed bool, err error) {
	if err := CheckVersion(e.Version); err != nil {
		return false, fmt.Errorf("lock file %s: %w", path, err)
	}
	if !isSHA256Hex(e.SHA256) {
		return false, fmt.Errorf("lock file %s: %q is not 64 lowercase hex digits", path, e.SHA256)
	}
	l, err := readLockIfExists(path)
	if err != nil {
		return false, err
	}
	if l == nil {
		l = &Lock{}
	}
	if old, ok := l.Lookup(e.Version); ok {
		if old.SHA256 != e.SHA256 {
			return false, &LockMismatchError{File: path, Version: e.Version, Locked: old.SHA256, Got: e.SHA256, Source: e.Source}
		}
		return false, nil
	}
	l.Set(e)
	return true, WriteLock(path, l)
}
