package spec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// DefaultMirror is where AdCP publishes protocol bundles, as
// <mirror>/protocol/<version>.tgz with a .sha256 sidecar.
const DefaultMirror = "https://adcontextprotocol.org"

// DefaultMaxBundleBytes bounds a downloaded bundle; published ones are
// about 2 MB.
const DefaultMaxBundleBytes = 64 << 20

// maxSidecarBytes bounds a checksum sidecar; real ones are under 100 bytes.
const maxSidecarBytes = 4 << 10

// FetchOptions say where Fetch downloads from, where it stores, and what it
// checks against. The zero value fetches from DefaultMirror into
// DefaultCacheDir.
type FetchOptions struct {
	// Mirror is an http(s):// URL, a file:// URL or a directory holding
	// protocol/<version>.tgz and protocol/<version>.tgz.sha256. "" means
	// DefaultMirror.
	Mirror string
	// CacheDir holds verified bundles (see Cache); "" means DefaultCacheDir().
	CacheDir string
	// Client makes the HTTP requests; nil means a client with a 5 minute
	// timeout that refuses https-to-http redirects.
	Client *http.Client
	// MaxBytes bounds the bundle; 0 means DefaultMaxBundleBytes.
	MaxBytes int64
	// Offline never touches the mirror: only cached bundles are served.
	Offline bool
	// LockFile, when set and the file exists, pins the version's checksum:
	// any other bundle, cached or published, is a *LockMismatchError and is
	// not stored. Fetch only reads the lock; see UpdateLock to record one.
	LockFile string
}

// Fetched describes a verified bundle in the cache.
type Fetched struct {
	Version string
	SHA256  string // hex sha256 of the .tgz
	Path    string // the bundle in the cache
	Source  string // the bundle's URL (or path) at the mirror
	Cached  bool   // served from the cache without downloading
	Tree    *Tree  // the unpacked bundle; its Source is Version
}

// HTTPError is a mirror's answer other than 200 OK. It matches
// fs.ErrNotExist for 404 and 410, like a missing file in a directory mirror.
type HTTPError struct {
	URL        string
	StatusCode int
	Status     string // "404 Not Found"
}

func (e *HTTPError) Error() string {
	status := e.Status
	if status == "" {
		status = fmt.Sprintf("%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	}
	return fmt.Sprintf("%s: HTTP %s", e.URL, status)
}

func (e *HTTPError) Is(target error) bool {
	return target == fs.ErrNotExist && (e.StatusCode == http.StatusNotFound || e.StatusCode == http.StatusGone)
}

// Fetch makes version's protocol bundle available in the cache and opens it.
//
// The cache answers first, without touching the network, when it can tell
// which bundle is meant: the one the lock file pins, else the only one cached
// for the version. Otherwise Fetch downloads <mirror>/protocol/<version>.tgz.sha256
// (mandatory), compares it with the lock, downloads the bundle (at most
// MaxBytes), checks its sha256, unpacks it with Unpack's limits and checks it
// publishes version; only then is it stored, atomically. A failed fetch
// stores nothing. Cached bundles are re-hashed on every read.
func Fetch(ctx context.Context, version string, opts FetchOptions) (*Fetched, error) {
	if err := CheckVersion(version); err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBundleBytes
	}
	cache, err := NewCache(opts.CacheDir)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", version, err)
	}
	m, err := parseMirror(opts.Mirror)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", version, err)
	}
	lock, err := readLockIfExists(opts.LockFile)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", version, err)
	}
	want := ""
	if lock != nil {
		if e, ok := lock.Lookup(version); ok {
			want = e.SHA256
		}
	}
	name := "protocol/" + version + ".tgz"
	source := m.where(name)

	sums, err := cache.Sums(version)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", version, err)
	}
	pick := ""
	if want != "" && slices.Contains(sums, want) {
		pick = want
	} else if want == "" && len(sums) == 1 {
		pick = sums[0]
	}
	if pick != "" {
		return openCached(cache, version, pick, source, opts.MaxBytes)
	}
	if opts.Offline {
		switch {
		case want != "" && len(sums) > 0:
			return nil, &LockMismatchError{File: opts.LockFile, Version: version, Locked: want,
				Got: strings.Join(sums, ", "), Source: "the cache " + filepath.Join(cache.Dir, version)}
		case len(sums) > 1:
			return nil, fmt.Errorf("fetch %s: the cache %s holds %d bundles (%s) and no lock entry says which; fetch online or pin one in a lock file",
				version, filepath.Join(cache.Dir, version), len(sums), strings.Join(sums, ", "))
		}
		return nil, fmt.Errorf("fetch %s: not in the cache %s, and offline: %w", version, cache.Dir, fs.ErrNotExist)
	}

	client := opts.Client
	if client == nil {
		client = defaultClient
	}
	sum, err := fetchSidecar(ctx, client, m, version, name+".sha256")
	if err != nil {
		return nil, err
	}
	if want != "" && sum != want {
		return nil, &LockMismatchError{File: opts.LockFile, Version: version, Locked: want, Got: sum, Source: m.where(name + ".sha256")}
	}
	if slices.Contains(sums, sum) {
		return openCached(cache, version, sum, source, opts.MaxBytes)
	}
	data, err := m.get(ctx, client, name, opts.MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", version, err)
	}
	if got := sha256Hex(data); got != sum {
		return nil, fmt.Errorf("fetch %s: %w (the expected sum is from %s)", version,
			&ChecksumError{Name: source, Want: sum, Got: got}, m.where(name+".sha256"))
	}
	t, err := openVerified(data, source, sum, version)
	if err != nil {
		return nil, err
	}
	p, err := cache.Put(version, sum, data)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", version, err)
	}
	return &Fetched{Version: version, SHA256: sum, Path: p, Source: source, Tree: t}, nil
}

func openCached(c *Cache, version, sum, source string, maxBytes int64) (*Fetched, error) {
	p, data, err := c.Read(version, sum, maxBytes)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", version, err)
	}
	t, err := openVerified(data, p, sum, version)
	if err != nil {
		return nil, err
	}
	return &Fetched{Version: version, SHA256: sum, Path: p, Source: source, Cached: true, Tree: t}, nil
}

// openVerified unpacks a bundle whose checksum was checked and makes sure it
// publishes version.
func openVerified(data []byte, where, sum, version string) (*Tree, error) {
	t, err := OpenBundle(data, where, sum, DefaultBundleLimits)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: refusing the bundle: %w", version, err)
	}
	switch t.Version {
	case version:
	case "":
		return nil, fmt.Errorf("fetch %s: refusing the bundle: %s does not say which version it publishes", version, where)
	default:
		return nil, fmt.Errorf("fetch %s: refusing the bundle: %s publishes version %s, not %s", version, where, t.Version, version)
	}
	t.Source = version
	return t, nil
}

// fetchSidecar downloads and parses "<hex>  <version>.tgz".
func fetchSidecar(ctx context.Context, client *http.Client, m *mirror, version, name string) (string, error) {
	where := m.where(name)
	data, err := m.get(ctx, client, name, maxSidecarBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("fetch %s: no checksum sidecar: %w (fetch requires the .sha256 file; is %s published at this mirror?)", version, err, version)
	}
	if err != nil {
		return "", fmt.Errorf("fetch %s: checksum sidecar: %w", version, err)
	}
	sum, err := ParseChecksumFile(data)
	if err != nil {
		return "", fmt.Errorf("fetch %s: %s: %w", version, where, err)
	}
	if fields := strings.Fields(string(data)); len(fields) > 1 {
		if named := path.Base(strings.TrimPrefix(fields[1], "*")); named != version+".tgz" {
			return "", fmt.Errorf("fetch %s: %s is the checksum of %s, not %s.tgz", version, where, named, version)
		}
	}
	return sum, nil
}

// mirror is a parsed --mirror: an HTTP base URL, or a local directory.
type mirror struct {
	http    *url.URL // for http(s)
	dir     string   // for file:// URLs and plain directories
	fileURL bool     // dir came from a file:// URL; name files that way
}

func parseMirror(base string) (*mirror, error) {
	if base == "" {
		base = DefaultMirror
	}
	if !strings.Contains(base, "://") {
		return &mirror{dir: base}, nil
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("mirror %q: %w", base, err)
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" {
			return nil, fmt.Errorf("mirror %q: no host", base)
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("mirror %q: a query or fragment is not supported", base)
		}
		return &mirror{http: u}, nil
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return nil, fmt.Errorf("mirror %q: a file URL must be absolute (file:///path/to/mirror); for a relative directory pass the path itself", base)
		}
		p := u.Path
		if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
			p = p[1:] // file:///C:/mirror on Windows
		}
		if p == "" {
			return nil, fmt.Errorf("mirror %q: no path", base)
		}
		return &mirror{dir: filepath.FromSlash(p), fileURL: true}, nil
	}
	return nil, fmt.Errorf("mirror %q: unsupported scheme %q (want https://, http://, file:// or a directory)", base, u.Scheme)
}

// where names a file of the mirror the way the user named the mirror.
func (m *mirror) where(name string) string {
	switch {
	case m.http != nil:
		return m.http.JoinPath(name).String()
	case m.fileURL:
		p := filepath.ToSlash(filepath.Join(m.dir, filepath.FromSlash(name)))
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return filepath.Join(m.dir, filepath.FromSlash(name))
}

// get reads a mirror file of at most max bytes. Errors start with where.
func (m *mirror) get(ctx context.Context, client *http.Client, name string, max int64) ([]byte, error) {
	where := m.where(name)
	if m.http == nil {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		return readLocal(filepath.Join(m.dir, filepath.FromSlash(name)), where, max)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, where, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its message repeats the URL
		}
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &HTTPError{URL: where, StatusCode: resp.StatusCode, Status: resp.Status}
	}
	if resp.ContentLength > max {
		return nil, fmt.Errorf("%s: %d bytes exceeds the %d byte limit", where, resp.ContentLength, max)
	}
	return readMax(resp.Body, where, max)
}

func readLocal(file, where string, max int64) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // its message repeats the path
		}
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	defer f.Close()
	return readMax(f, where, max)
}

func readMax(r io.Reader, where string, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: reading: %w", where, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than the %d byte limit", where, max)
	}
	return data, nil
}

var defaultClient = &http.Client{Timeout: 5 * time.Minute, CheckRedirect: refuseDowngrade}

// refuseDowngrade follows at most 10 redirects and never from https to
// anything else: the sidecar is only as trustworthy as its transport.
func refuseDowngrade(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if via[0].URL.Scheme == "https" && req.URL.Scheme != "https" {
		return fmt.Errorf("refusing to follow a redirect from https to %s", req.URL)
	}
	return nil
}
