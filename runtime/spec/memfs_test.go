package spec

import (
	"errors"
	"io"
	"io/fs"
	"testing"
	"testing/fstest"
)

func sampleMemFS() *memFS {
	m := newMemFS()
	m.add("z.json", []byte(`{"z":1}`))
	m.add("dir/sub/c.json", []byte("c"))
	m.add("dir/b.json", []byte("bb"))
	m.add("a.json", []byte("a"))
	m.add("dir/a.json", []byte(""))
	return m
}

// TestMemFSConformance runs the standard library's fs.FS checker, which
// exercises Open, Stat, ReadDir (whole and paged), ReadFile and Sub.
func TestMemFSConformance(t *testing.T) {
	m := sampleMemFS()
	if err := fstest.TestFS(m, "a.json", "z.json", "dir/a.json", "dir/b.json", "dir/sub/c.json"); err != nil {
		t.Fatal(err)
	}
	sub, err := fs.Sub(m, "dir")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := sub.(*memFS); !ok {
		t.Fatalf("fs.Sub did not use memFS.Sub: %T", sub)
	}
	if err := fstest.TestFS(sub, "a.json", "b.json", "sub/c.json"); err != nil {
		t.Fatal(err)
	}
}

func TestMemFSReadDir(t *testing.T) {
	m := sampleMemFS()
	for _, tc := range []struct {
		dir  string
		want []string // name, "/" suffix for folders
	}{
		{".", []string{"a.json", "dir/", "z.json"}},
		{"dir", []string{"a.json", "b.json", "sub/"}},
		{"dir/sub", []string{"c.json"}},
	} {
		entries, err := m.ReadDir(tc.dir)
		if err != nil {
			t.Fatalf("ReadDir(%s): %v", tc.dir, err)
		}
		var got []string
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() {
				name += "/"
			}
			got = append(got, name)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("ReadDir(%s) = %v, want %v", tc.dir, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("ReadDir(%s) = %v, want %v", tc.dir, got, tc.want)
			}
		}
	}
	info, _ := fs.Stat(m, "dir/b.json")
	if info.Size() != 2 || info.IsDir() || info.Mode() != 0o444 {
		t.Fatalf("Stat(dir/b.json) = size %d dir %v mode %v", info.Size(), info.IsDir(), info.Mode())
	}
	if _, err := m.ReadDir("nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadDir(nope) = %v", err)
	}
}

func TestMemFSPagedReadDir(t *testing.T) {
	f, err := sampleMemFS().Open("dir")
	if err != nil {
		t.Fatal(err)
	}
	d := f.(fs.ReadDirFile)
	var names []string
	for {
		page, err := d.ReadDir(2)
		for _, e := range page {
			names = append(names, e.Name())
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > 2 {
			t.Fatalf("page of %d", len(page))
		}
	}
	if len(names) != 3 || names[0] != "a.json" || names[2] != "sub" {
		t.Fatalf("paged names %v", names)
	}
	if _, err := f.Read(make([]byte, 1)); err == nil {
		t.Fatal("Read on a directory succeeded")
	}
}

func TestMemFSErrors(t *testing.T) {
	m := sampleMemFS()
	for _, name := range []string{"/a.json", "../a.json", "dir/../a.json", "dir/", ""} {
		if _, err := m.Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q) = %v, want ErrInvalid", name, err)
		}
		if _, err := m.ReadFile(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("ReadFile(%q) = %v, want ErrInvalid", name, err)
		}
	}
	if _, err := m.Open("missing.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) = %v", err)
	}
	if _, err := m.ReadFile("dir"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(dir) = %v", err)
	}
	if _, err := m.Sub("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Sub(missing) = %v", err)
	}
	if same, err := m.Sub("."); err != nil || same != fs.FS(m) {
		t.Errorf("Sub(.) = %v, %v", same, err)
	}
}

func TestMemFSReadFileReturnsACopy(t *testing.T) {
	m := sampleMemFS()
	data, _ := m.ReadFile("a.json")
	data[0] = 'X'
	again, _ := m.ReadFile("a.json")
	if string(again) != "a" {
		t.Fatalf("caller's write changed the file system: %q", again)
	}
}

func TestInsertSorted(t *testing.T) {
	var list []string
	for _, s := range []string{"m", "c", "x", "c", "a", "m"} {
		list = insertSorted(list, s)
	}
	if len(list) != 4 || list[0] != "a" || list[1] != "c" || list[2] != "m" || list[3] != "x" {
		t.Fatalf("insertSorted: %v", list)
	}
}
