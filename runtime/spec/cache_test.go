package spec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestCachePutRead(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	data := []byte("bundle bytes")
	sum := sha256Hex(data)
	if sums, err := c.Sums("1.2.3"); err != nil || len(sums) != 0 {
		t.Fatalf("empty cache Sums = %v, %v", sums, err)
	}
	if _, _, err := c.Read("1.2.3", sum, 1<<20); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Read of a missing bundle = %v", err)
	}
	p, err := c.Put("1.2.3", sum, data)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(c.Dir, "1.2.3", sum+".tgz"); p != want {
		t.Fatalf("Put path %s, want %s", p, want)
	}
	side, _ := os.ReadFile(p + ".sha256")
	if string(side) != sum+"  "+sum+".tgz\n" {
		t.Fatalf("sidecar %q", side)
	}
	gotPath, got, err := c.Read("1.2.3", sum, 1<<20)
	if err != nil || gotPath != p || string(got) != string(data) {
		t.Fatalf("Read = %s %q %v", gotPath, got, err)
	}
	if _, _, err := c.Read("1.2.3", sum, 4); err == nil || !strings.Contains(err.Error(), "4 byte limit") {
		t.Fatalf("Read over the limit = %v", err)
	}
	// Storing again (another process fetched the same bundle) is fine.
	if _, err := c.Put("1.2.3", sum, data); err != nil {
		t.Fatal(err)
	}
	assertNoTempFiles(t, c.Dir)
}

func TestCacheSumsIgnoresStrayFiles(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	a, b := []byte("a"), []byte("b")
	c.Put("1.2.3", sha256Hex(b), b)
	c.Put("1.2.3", sha256Hex(a), a)
	dir := filepath.Join(c.Dir, "1.2.3")
	os.WriteFile(filepath.Join(dir, ".tmp-x.tgz-123"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, strings.ToUpper(sumC)+".tgz"), nil, 0o644)
	os.Mkdir(filepath.Join(dir, sumC+".tgz"), 0o755)
	sums, err := c.Sums("1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{sha256Hex(a), sha256Hex(b)}
	if sha256Hex(a) > sha256Hex(b) {
		want = []string{sha256Hex(b), sha256Hex(a)}
	}
	if strings.Join(sums, ",") != strings.Join(want, ",") {
		t.Fatalf("Sums = %v, want %v", sums, want)
	}
}

func TestCacheRefuses(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	data := []byte("x")
	if _, err := c.Put("1.2.3", sumC, data); err == nil || !strings.Contains(err.Error(), "refusing to store") {
		t.Errorf("Put with the wrong sum: %v", err)
	}
	for _, v := range []string{"../escape", "1.2.3/../../x", "", "/abs"} {
		if _, err := c.Put(v, sha256Hex(data), data); err == nil {
			t.Errorf("Put(%q) accepted", v)
		}
		if _, err := c.Sums(v); err == nil {
			t.Errorf("Sums(%q) accepted", v)
		}
		if _, _, err := c.Read(v, sha256Hex(data), 10); err == nil {
			t.Errorf("Read(%q) accepted", v)
		}
	}
	for _, sum := range []string{"", "../x", strings.ToUpper(sha256Hex(data))} {
		if _, _, err := c.Read("1.2.3", sum, 10); err == nil {
			t.Errorf("Read with sum %q accepted", sum)
		}
	}
	assertEmptyDir(t, c.Dir)
}

func TestCacheReadDetectsCorruption(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	data := []byte("original")
	sum := sha256Hex(data)
	p, _ := c.Put("1.2.3", sum, data)
	os.WriteFile(p, []byte("tampered"), 0o644)
	_, _, err := c.Read("1.2.3", sum, 100)
	var cc *CacheCorruptError
	if !errors.As(err, &cc) || cc.Want != sum || cc.Got != sha256Hex([]byte("tampered")) || cc.Path != p {
		t.Fatalf("got %v", err)
	}
}

func TestDefaultCacheDir(t *testing.T) {
	if runtime.GOOS == "linux" {
		t.Setenv("XDG_CACHE_HOME", "/var/cache/u")
	}
	dir, err := DefaultCacheDir()
	if err != nil {
		t.Skipf("no user cache dir here: %v", err)
	}
	if !strings.HasSuffix(dir, filepath.Join("adcpgen", "specs")) {
		t.Fatalf("DefaultCacheDir = %s", dir)
	}
	if runtime.GOOS == "linux" && dir != "/var/cache/u/adcpgen/specs" {
		t.Fatalf("DefaultCacheDir = %s", dir)
	}
	c, err := NewCache("")
	if err != nil || c.Dir != dir {
		t.Fatalf("NewCache(\"\") = %v, %v", c, err)
	}
	if runtime.GOOS == "linux" {
		t.Setenv("XDG_CACHE_HOME", "")
		t.Setenv("HOME", "")
		if _, err := NewCache(""); err == nil || !strings.Contains(err.Error(), "pass a cache directory") {
			t.Fatalf("NewCache without HOME: %v", err)
		}
	}
}

func TestWriteFileAtomicLeavesNothingOnFailure(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "sub") // a directory: the rename must fail
	os.Mkdir(target, 0o755)
	os.WriteFile(filepath.Join(target, "keep"), nil, 0o644)
	if err := writeFileAtomic(target, []byte("x"), 0o644); err == nil {
		t.Fatal("renamed a file over a non-empty directory")
	}
	assertNoTempFiles(t, dir)
}
