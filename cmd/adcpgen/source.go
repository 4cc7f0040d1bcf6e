package main

import (
	"context"
	"flag"
	"path/filepath"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/schemas"
)

// sourceFlags are the flags every command that reads a spec shares.
type sourceFlags struct {
	spec    string
	mirror  string
	cache   string
	lock    string
	offline bool
}

func (s *sourceFlags) register(fs *flag.FlagSet, e *env, specHelp string) {
	fs.StringVar(&s.spec, "spec", e.getenv("ADCP_SPEC"), specHelp)
	s.registerResolve(fs, e)
}

// registerResolve registers the flags that say how a version is found and
// checked (all but --spec), for commands that name their sources otherwise.
func (s *sourceFlags) registerResolve(fs *flag.FlagSet, e *env) {
	fs.StringVar(&s.mirror, "mirror", e.getenv("ADCP_MIRROR"), "where versions are downloaded from: an https:// URL, a file:// URL or a directory holding protocol/<version>.tgz\n(default https://adcontextprotocol.org; also $ADCP_MIRROR)")
	fs.StringVar(&s.cache, "cache", e.getenv("ADCP_CACHE"), "spec cache directory (default: the user cache dir's adcpgen/specs; also $ADCP_CACHE)")
	fs.StringVar(&s.lock, "lock", spec.LockFileName, "lock file whose checksums a version or bundle must match when it lists them")
	fs.BoolVar(&s.offline, "offline", false, "never download: a version must already be in the cache")
}

// open resolves the spec source: a directory, a .tgz bundle, a version
// (through the cache, fetching when missing), or, when empty and
// allowEmbedded, adcpgen's own embedded core schemas.
func (s *sourceFlags) open(ctx context.Context, allowEmbedded bool) (*spec.Tree, error) {
	if s.spec == "" && allowEmbedded {
		tree, err := spec.OpenFS(schemas.FS, "embedded", spec.KindEmbedded)
		if err != nil {
			return nil, err
		}
		tree.Version = schemas.Version
		return tree, nil
	}
	return s.resolve(ctx, s.spec)
}

// resolve opens source (a version, directory or .tgz bundle) with the
// mirror, cache, lock and offline settings of s.
func (s *sourceFlags) resolve(ctx context.Context, source string) (*spec.Tree, error) {
	return spec.Resolve(ctx, source, spec.ResolveOptions{Mirror: s.mirror, CacheDir: s.cache, Offline: s.offline, LockFile: s.lock})
}

// display names a path the user gave without making it absolute: absolute
// paths become relative to the working directory when they can.
func display(p string) string {
	if p == "" || !filepath.IsAbs(p) {
		return filepath.ToSlash(p)
	}
	if wd, err := filepath.Abs("."); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(p)
}

// relativeTo is source as seen from the directory dir: a version as it
// is, a path relative to dir (never absolute: that would name the machine).
func relativeTo(dir, source string) string {
	if spec.IsVersion(source) {
		return source
	}
	abs, err1 := filepath.Abs(source)
	base, err2 := filepath.Abs(dir)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(base, abs); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(source)
}

// shellQuote quotes an argument for a command line shown to users.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$*?[]{}();&|<>`~#") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
