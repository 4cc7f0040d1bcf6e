package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Bundles and kit folders sort by their numbers.
func TestCompareNatural(t *testing.T) {
	got := []string{"3.2.0-beta.10", "3.1.18", "3.2.0-beta.5", "3.0.25", "3.0.3", "adcp-sdk-14", "adcp-sdk-9"}
	slices.SortFunc(got, compareNatural)
	want := []string{"3.0.3", "3.0.25", "3.1.18", "3.2.0-beta.5", "3.2.0-beta.10", "adcp-sdk-9", "adcp-sdk-14"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// The kit folder is the newest adcp-sdk-* of a folder, or the folder
// itself; its install is named by the digest of the files npm ci reads,
// so any change to them installs it again.
func TestKitSourceAndDigest(t *testing.T) {
	dir := t.TempDir()
	if _, err := kitSource(dir); !errors.Is(err, errNoKit) {
		t.Fatalf("empty folder: %v", err)
	}
	for _, name := range []string{"adcp-sdk-9", "adcp-sdk-14"} {
		write(t, filepath.Join(dir, name, "package.json"), `{}`)
		write(t, filepath.Join(dir, name, "package-lock.json"), `{}`)
	}
	src, err := kitSource(dir)
	if err != nil || filepath.Base(src) != "adcp-sdk-14" {
		t.Fatalf("kitSource = %s, %v", src, err)
	}
	if again, err := kitSource(src); err != nil || again != src {
		t.Fatalf("the kit folder itself: %s, %v", again, err)
	}
	write(t, filepath.Join(src, "adcp-sdk-14.0.0.tgz"), "packed")
	write(t, filepath.Join(src, "README.md"), "not read")
	sum, files, err := kitDigest(src)
	if err != nil || !slices.Equal(files, []string{"adcp-sdk-14.0.0.tgz", "package-lock.json", "package.json"}) {
		t.Fatalf("kitDigest: %q, %v", files, err)
	}
	write(t, filepath.Join(src, "README.md"), "changed, still not read")
	if again, _, _ := kitDigest(src); again != sum {
		t.Error("the digest covers a file npm ci does not read")
	}
	write(t, filepath.Join(src, "adcp-sdk-14.0.0.tgz"), "repacked")
	if again, _, _ := kitDigest(src); again == sum {
		t.Error("the digest misses the tarball")
	}
	os.Remove(filepath.Join(src, "package-lock.json"))
	if _, _, err := kitDigest(src); !errors.Is(err, errNoKit) {
		t.Errorf("no lock file: %v", err)
	}
}

// The test kit names the key and a probe task from the runner's
// allowlist.
func TestWriteTestKit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kit.yaml")
	if err := writeTestKit(path, "live-key"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "auth:\n  api_key: \"live-key\"\n  probe_task: list_creatives\n") {
		t.Errorf("test kit:\n%s", data)
	}
}

// runJobs runs every job, never more than parallel at once, and stops
// starting jobs after the first error, which it returns.
func TestRunJobs(t *testing.T) {
	var running, most, done atomic.Int32
	job := func(ctx context.Context) error {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(time.Millisecond) // let the others start, if they may
		running.Add(-1)
		done.Add(1)
		return nil
	}
	jobs := slices.Repeat([]func(context.Context) error{job}, 20)
	if err := runJobs(t.Context(), 3, jobs); err != nil || done.Load() != 20 || most.Load() > 3 {
		t.Fatalf("err %v, %d done, %d at most at once", err, done.Load(), most.Load())
	}
	boom := errors.New("boom")
	done.Store(0)
	failing := append([]func(context.Context) error{func(context.Context) error { return boom }}, jobs...)
	if err := runJobs(t.Context(), 1, failing); !errors.Is(err, boom) || done.Load() != 0 {
		t.Fatalf("after a failure: %v, %d more done", err, done.Load())
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
