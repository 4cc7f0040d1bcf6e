package spec

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
)

// ResolveOptions say where Resolve finds a version and what it checks it
// against. The zero value fetches from DefaultMirror into DefaultCacheDir and
// checks no lock file.
type ResolveOptions struct {
	// Mirror is where protocol bundles are published: an http(s):// URL, a
	// file:// URL or a directory holding protocol/<version>.tgz and its
	// .sha256 sidecar. "" means DefaultMirror.
	Mirror string
	// CacheDir holds verified bundles; "" means DefaultCacheDir().
	CacheDir string
	// Client makes the HTTP requests; nil means a client with a 5 minute
	// timeout that refuses https-to-http redirects.
	Client *http.Client
	// Offline never downloads: a version missing from the cache is an error.
	Offline bool
	// LockFile, when set and the file exists, pins versions to checksums
	// (see Lock). A missing file is not an error; an unreadable or malformed
	// one is.
	LockFile string
}

// Resolve opens the spec a user named, the way every adcpgen command does:
//
//   - A version ("3.0.26", "3.2.0-beta.3"; see CheckVersion) is served from
//     the cache, and fetched from the mirror into it when missing (unless
//     opts.Offline). When the lock file lists the version, only a bundle with
//     the locked checksum is accepted: any other is a *LockMismatchError.
//     A string that is a valid version is always taken as one; write
//     "./3.0.26" to open a directory of that name.
//   - Anything else is a path given to Open: a schema tree directory, or a
//     .tgz bundle (checked against its .sha256 sidecar when one sits beside
//     it). When the bundle publishes a version the lock file lists, its
//     sha256 must equal the locked one too. Directories are not checked
//     against the lock: the lock records bundle checksums, and a directory
//     has none.
//
// The returned Tree's Source is source as given.
func Resolve(ctx context.Context, source string, opts ResolveOptions) (*Tree, error) {
	if source == "" {
		return nil, errors.New("spec: no source given (want a version, a directory or a .tgz bundle)")
	}
	if IsVersion(source) {
		res, err := Fetch(ctx, source, FetchOptions{
			Mirror:   opts.Mirror,
			CacheDir: opts.CacheDir,
			Client:   opts.Client,
			Offline:  opts.Offline,
			LockFile: opts.LockFile,
		})
		if err != nil {
			return nil, err
		}
		return res.Tree, nil
	}
	lock, err := readLockIfExists(opts.LockFile)
	if err != nil {
		return nil, err
	}
	t, err := Open(source)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(source, `/\`) && !IsBundleName(source) {
			return nil, fmt.Errorf("spec %s: not a version (%v), nor an existing directory or .tgz bundle", source, CheckVersion(source))
		}
		return nil, err
	}
	if t.Kind == KindBundle && lock != nil {
		if entry, ok := lock.Lookup(t.Version); ok {
			got := strings.TrimPrefix(t.Checksum, "sha256:")
			if got != entry.SHA256 {
				return nil, &LockMismatchError{File: opts.LockFile, Version: t.Version, Locked: entry.SHA256, Got: got, Source: source}
			}
		}
	}
	return t, nil
}

// maxVersionLen bounds a version string; real ones are under 20 bytes.
const maxVersionLen = 64

// versionPattern is semver 2.0 without build metadata or a leading "v":
// MAJOR.MINOR.PATCH, then an optional "-" and dot-separated identifiers.
// No "/", "\\" or ".." can match, so a version is always safe in a path.
var versionPattern = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*)?$`)

// CheckVersion reports why v is not a version adcpgen can fetch, or nil.
func CheckVersion(v string) error {
	switch {
	case v == "":
		return errors.New("empty version")
	case len(v) > maxVersionLen:
		return fmt.Errorf("version is longer than %d bytes", maxVersionLen)
	case !versionPattern.MatchString(v):
		return fmt.Errorf("version %q is not MAJOR.MINOR.PATCH[-PRERELEASE] (e.g. 3.0.26, 3.2.0-beta.3)", v)
	}
	return nil
}

// IsVersion reports whether v is a valid version (see CheckVersion).
func IsVersion(v string) bool { return CheckVersion(v) == nil }

// compareVersions orders valid versions by semver precedence: numerically
// by MAJOR.MINOR.PATCH, a prerelease before its release, prerelease
// identifiers numerically when both are numbers, else as text, numbers
// first, and a shorter list first when one is a prefix of the other.
func compareVersions(a, b string) int {
	aCore, aPre, _ := strings.Cut(a, "-")
	bCore, bPre, _ := strings.Cut(b, "-")
	if c := compareIdents(strings.Split(aCore, "."), strings.Split(bCore, ".")); c != 0 {
		return c
	}
	switch {
	case aPre == bPre:
		return 0
	case aPre == "":
		return 1
	case bPre == "":
		return -1
	}
	return compareIdents(strings.Split(aPre, "."), strings.Split(bPre, "."))
}

func compareIdents(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareIdent(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

func compareIdent(a, b string) int {
	an, bn := isDigits(a), isDigits(b)
	switch {
	case an && bn:
		// No leading zeros, so the longer number is the larger.
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	case an:
		return -1
	case bn:
		return 1
	}
	return strings.Compare(a, b)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
