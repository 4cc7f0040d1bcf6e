package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/spec"
)

const fetchSynopsis = "adcpgen fetch VERSION [--mirror BASE] [--cache DIR] [--lock PATH] [--no-lock]"

const fetchDescription = `
Download an AdCP version's protocol bundle, verify it and store it in the spec
cache, then pin its checksum in the lock file.

fetch reads BASE/protocol/VERSION.tgz and its .sha256 sidecar (required),
checks the sum, unpacks the bundle safely (no "..", absolute paths or links;
size and file-count caps) to prove it is valid, and only then stores it as
DIR/VERSION/<sha256>.tgz. A failed fetch stores nothing. A version already in
the cache is served from it without the network.

The lock file pins each version to one sha256, like go.sum: when it lists
VERSION with another checksum, fetch fails and changes nothing. Cosign
signatures are not verified; see the README.

On success fetch prints one line: VERSION sha256:<hex> <path of the cached bundle>.

Exit status: 0 fetched, 1 the download or a check failed, 2 bad usage or an
unreadable lock file.`

func runFetch(e *env, args []string) int {
	flags := newFlagSet("fetch", fetchSynopsis, fetchDescription)
	mirrorDefault := e.getenv("ADCP_MIRROR")
	if mirrorDefault == "" {
		mirrorDefault = spec.DefaultMirror
	}
	cacheDefault := e.getenv("ADCP_CACHE")
	if cacheDefault == "" {
		cacheDefault, _ = spec.DefaultCacheDir() // "" makes Fetch say why
	}
	mirror := flags.String("mirror", mirrorDefault,
		"where bundles are published: an https:// or file:// URL, or a directory holding\nprotocol/VERSION.tgz and its .sha256 ($ADCP_MIRROR)")
	cache := flags.String("cache", cacheDefault, "spec cache directory ($ADCP_CACHE)")
	lock := flags.String("lock", spec.LockFileName, "lock file to check VERSION against and record it in")
	noLock := flags.Bool("no-lock", false, "neither read nor write a lock file")

	pos, done, code := parseArgs(e, "fetch", flags, args)
	if done {
		return code
	}
	switch len(pos) {
	case 0:
		return usageError(e, "fetch", "missing VERSION (e.g. 3.0.26)")
	case 1:
	default:
		return usageError(e, "fetch", "want one VERSION, got %d: %s", len(pos), strings.Join(pos, " "))
	}
	version := pos[0]
	if err := spec.CheckVersion(version); err != nil {
		return usageError(e, "fetch", "%v", err)
	}
	lockGiven := false
	flags.Visit(func(f *flag.Flag) { lockGiven = lockGiven || f.Name == "lock" })
	lockPath := *lock
	switch {
	case *noLock && lockGiven:
		return usageError(e, "fetch", "--lock and --no-lock exclude each other")
	case *noLock:
		lockPath = ""
	case lockPath == "":
		return usageError(e, "fetch", "--lock needs a path (or use --no-lock)")
	default:
		// A lock file that cannot be read is bad input, not a failed fetch.
		if _, err := spec.ReadLock(lockPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(e.stderr, "adcpgen fetch: %v\n", err)
			return exitUsage
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := spec.Fetch(ctx, version, spec.FetchOptions{Mirror: *mirror, CacheDir: *cache, LockFile: lockPath})
	if err != nil {
		fmt.Fprintf(e.stderr, "adcpgen fetch: %v\n", err)
		return exitFailure
	}
	if lockPath != "" {
		entry := spec.LockEntry{Version: res.Version, SHA256: res.SHA256, Source: res.Source}
		if _, err := spec.UpdateLock(lockPath, entry); err != nil {
			fmt.Fprintf(e.stderr, "adcpgen fetch: %v\n", err)
			return exitFailure
		}
	}
	fmt.Fprintf(e.stdout, "%s sha256:%s %s\n", res.Version, res.SHA256, res.Path)
	return exitOK
}
