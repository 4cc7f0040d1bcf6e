package spec

import (
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// memFS is a read-only in-memory file system holding an unpacked bundle.
type memFS struct {
	files map[string][]byte   // clean slash path -> content
	dirs  map[string][]string // clean slash path -> sorted child names
}

func newMemFS() *memFS {
	return &memFS{files: map[string][]byte{}, dirs: map[string][]string{".": nil}}
}

// add stores a file and registers it in every parent directory.
func (m *memFS) add(name string, data []byte) {
	m.files[name] = data
	for child := name; child != "."; child = path.Dir(child) {
		parent := path.Dir(child)
		_, existed := m.dirs[parent]
		m.dirs[parent] = insertSorted(m.dirs[parent], path.Base(child))
		if existed {
			return // its ancestors are registered already
		}
	}
}

func insertSorted(list []string, s string) []string {
	i := sort.SearchStrings(list, s)
	if i < len(list) && list[i] == s {
		return list
	}
	list = append(list, "")
	copy(list[i+1:], list[i:])
	list[i] = s
	return list
}

func (m *memFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if data, ok := m.files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(data))}, r: strings.NewReader(string(data))}, nil
	}
	if kids, ok := m.dirs[name]; ok {
		return &memDir{fs: m, name: name, kids: kids}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (m *memFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	data, ok := m.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return append([]byte(nil), data...), nil
}

func (m *memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	kids, ok := m.dirs[name]
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return m.entries(name, kids), nil
}

func (m *memFS) entries(dir string, kids []string) []fs.DirEntry {
	out := make([]fs.DirEntry, 0, len(kids))
	for _, k := range kids {
		full := path.Join(dir, k)
		if data, ok := m.files[full]; ok {
			out = append(out, fs.FileInfoToDirEntry(memInfo{name: k, size: int64(len(data))}))
		} else {
			out = append(out, fs.FileInfoToDirEntry(memInfo{name: k, dir: true}))
		}
	}
	return out
}

// Sub lets fs.Sub return a rooted view without copying.
func (m *memFS) Sub(dir string) (fs.FS, error) {
	if dir == "." {
		return m, nil
	}
	if _, ok := m.dirs[dir]; !ok {
		return nil, &fs.PathError{Op: "sub", Path: dir, Err: fs.ErrNotExist}
	}
	sub := newMemFS()
	prefix := dir + "/"
	for name, data := range m.files {
		if strings.HasPrefix(name, prefix) {
			sub.add(strings.TrimPrefix(name, prefix), data)
		}
	}
	return sub, nil
}

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }

type memFile struct {
	info memInfo
	r    *strings.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Close() error               { return nil }

type memDir struct {
	fs   *memFS
	name string
	kids []string
	off  int
}

func (d *memDir) Stat() (fs.FileInfo, error) {
	return memInfo{name: path.Base(d.name), dir: true}, nil
}
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: fs.ErrInvalid}
}
func (d *memDir) Close() error { return nil }
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.kids[d.off:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && n < len(rest) {
		rest = rest[:n]
	}
	d.off += len(rest)
	return d.fs.entries(d.name, rest), nil
}
