package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
)

// Cache is an on-disk store of verified protocol bundles, laid out as
//
//	DIR/<version>/<sha256>.tgz         the bundle, named by its own checksum
//	DIR/<version>/<sha256>.tgz.sha256  "<sha256>  <sha256>.tgz", so that
//	                                   `shasum -a 256 -c` works in the folder
//
// Only bundles that passed every check are stored, each with an atomic
// rename, so readers never see a partial file. Reading re-hashes the bundle
// and refuses one whose bytes no longer match its name.
type Cache struct {
	Dir string
}

// DefaultCacheDir is os.UserCacheDir()/adcpgen/specs.
func DefaultCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no default spec cache (%w); pass a cache directory", err)
	}
	return filepath.Join(base, "adcpgen", "specs"), nil
}

// NewCache returns the cache in dir, or in DefaultCacheDir when dir is "".
// It creates nothing: folders appear when the first bundle is stored.
func NewCache(dir string) (*Cache, error) {
	if dir == "" {
		d, err := DefaultCacheDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	return &Cache{Dir: dir}, nil
}

// CacheCorruptError reports a cached bundle whose bytes no longer hash to
// the checksum it is stored under.
type CacheCorruptError struct {
	Path      string
	Want, Got string
}

func (e *CacheCorruptError) Error() string {
	return fmt.Sprintf("cached bundle %s is corrupted: sha256 is %s, its name says %s; delete it and fetch again", e.Path, e.Got, e.Want)
}

var cachedName = regexp.MustCompile(`^[0-9a-f]{64}\.tgz$`)

// BundlePath is where the bundle of version with checksum sum (hex) lives.
func (c *Cache) BundlePath(version, sum string) string {
	return filepath.Join(c.Dir, version, sum+".tgz")
}

// Sums lists the checksums cached for version, sorted. A version with no
// folder has none.
func (c *Cache) Sums(version string) ([]string, error) {
	if err := CheckVersion(version); err != nil {
		return nil, err
	}
	dir := filepath.Join(c.Dir, version)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("spec cache: %w", err)
	}
	var sums []string
	for _, e := range entries {
		if e.Type().IsRegular() && cachedName.MatchString(e.Name()) {
			sums = append(sums, e.Name()[:64])
		}
	}
	sort.Strings(sums)
	return sums, nil
}

// Read returns the cached bundle of version with checksum sum, after
// checking its bytes still hash to sum. A missing bundle is an error
// wrapping fs.ErrNotExist; a changed one a *CacheCorruptError.
func (c *Cache) Read(version, sum string, maxBytes int64) (path string, data []byte, err error) {
	if err := CheckVersion(version); err != nil {
		return "", nil, err
	}
	if !isSHA256Hex(sum) {
		return "", nil, fmt.Errorf("spec cache: %q is not a sha256 hex digest", sum)
	}
	path = c.BundlePath(version, sum)
	data, err = readFileMax(path, maxBytes)
	if err != nil {
		return "", nil, fmt.Errorf("spec cache: %w", err)
	}
	if got := sha256Hex(data); got != sum {
		return "", nil, &CacheCorruptError{Path: path, Want: sum, Got: got}
	}
	return path, data, nil
}

// Put stores data, which must hash to sum, as the bundle of version and
// returns its path. Storing a bundle that is already there rewrites it.
func (c *Cache) Put(version, sum string, data []byte) (string, error) {
	if err := CheckVersion(version); err != nil {
		return "", err
	}
	if got := sha256Hex(data); got != sum {
		return "", fmt.Errorf("spec cache: refusing to store %s bundle: sha256 is %s, not %s", version, got, sum)
	}
	dir := filepath.Join(c.Dir, version)
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("spec cache: %w", err)
	}
	path := c.BundlePath(version, sum)
	// The sidecar goes first: the bundle's rename is what makes the entry
	// visible, and a stray sidecar without its bundle is harmless.
	err := writeFileAtomic(path+".sha256", []byte(sum+"  "+sum+".tgz\n"), 0o644)
	if err == nil {
		err = writeFileAtomic(path, data, 0o644)
	}
	if err != nil {
		os.Remove(path + ".sha256")
		if errors.Is(statErr, fs.ErrNotExist) {
			os.Remove(dir) // only when we created it; fails harmlessly if not empty
		}
		return "", fmt.Errorf("spec cache: %w", err)
	}
	return path, nil
}

// writeFileAtomic writes data to a temporary file beside name and renames
// it over name, so readers see the old content or the new, never a part.
func writeFileAtomic(name string, data []byte, perm fs.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-"+filepath.Base(name)+"-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp.Name(), perm); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// readFileMax reads a file of at most max bytes.
func readFileMax(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than the %d byte limit", name, max)
	}
	return data, nil
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

var sha256HexPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

func isSHA256Hex(s string) bool { return sha256HexPattern.MatchString(s) }
