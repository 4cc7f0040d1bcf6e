// Command gencost measures what the generated bindings cost a downstream
// build: for each spec version it generates the package into a temporary
// module (a replace directive points at this checkout), seeds a fresh
// GOCACHE with every dependency, then times a cold `go build` of the
// generated package alone (wall, user+sys CPU, peak RSS of the go command
// and the compiler it runs) and links two small programs that decode one
// get_products response: one through the package's Decode, one through
// encoding/json.Unmarshal.
//
// Usage: go run ./internal/gencost [-spec DIR] [-keep] [VERSION...]
// (run from the module root; -spec defaults to $ADCP_SPEC_DIR, else
// ../shared/adcp; versions default to 3.0.26 3.1.19 3.2.0-beta.3 3.2.0-beta.5).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/internal/roundtrip"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

var defaultVersions = []string{"3.0.26", "3.1.19", "3.2.0-beta.3", "3.2.0-beta.5"}

func main() {
	specDir := flag.String("spec", defaultSpecDir(), "the published spec directory")
	keep := flag.Bool("keep", false, "keep the temporary modules and print where they are")
	flag.Parse()
	versions := flag.Args()
	if len(versions) == 0 {
		versions = defaultVersions
	}
	root, err := roundtrip.ModuleRoot()
	if err != nil {
		fail(err)
	}
	// One row per version as soon as it is measured (a run takes minutes).
	const row = "%-13s %6v %6v %8v %10v %11v %13v %12v %12v %14v %12v\n"
	fmt.Printf(row, "version", "types", "files", "lines", "source MB", "generate s", "build wall s", "build cpu s",
		"peak RSS MB", "bin Decode MB", "bin json MB")
	for _, v := range versions {
		m, err := measure(root, *specDir, v, *keep)
		if err != nil {
			fail(fmt.Errorf("%s: %w", v, err))
		}
		f := func(format string, x float64) string { return fmt.Sprintf(format, x) }
		fmt.Printf(row, v, m.types, m.files, m.lines, f("%.1f", float64(m.bytes)/1e6), f("%.2f", m.generate.Seconds()),
			f("%.1f", m.wall.Seconds()), f("%.1f", m.cpu.Seconds()), f("%.0f", float64(m.rss)/1e6),
			f("%.1f", float64(m.binDecode)/1e6), f("%.1f", float64(m.binJSON)/1e6))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gencost:", err)
	os.Exit(1)
}

func defaultSpecDir() string {
	if d := os.Getenv("ADCP_SPEC_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "shared", "adcp")
}

// source finds a version as a bundle or a schema tree directory.
func source(specDir, version string) (string, error) {
	for _, p := range []string{
		filepath.Join(specDir, "protocol", version+".tgz"),
		filepath.Join(specDir, "schemas", version),
	} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no protocol/%s.tgz or schemas/%s under %s", version, version, specDir)
}

type measurement struct {
	types, files, lines int
	bytes               int64
	generate            time.Duration
	wall, cpu           time.Duration
	rss                 int64 // bytes
	binDecode, binJSON  int64
}

const pkgName = "adcpv"

func measure(root, specDir, version string, keep bool) (*measurement, error) {
	src, err := source(specDir, version)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "gencost-")
	if err != nil {
		return nil, err
	}
	if keep {
		fmt.Fprintln(os.Stderr, "gencost: keeping", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	tree, err := spec.Open(src)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res, err := generator.Generate(generator.Options{Tree: tree, Package: pkgName, SpecName: "AdCP " + tree.Version,
		Source: version, Command: "go run ./internal/gencost (measurement; never committed)"})
	if err != nil {
		return nil, err
	}
	m := &measurement{types: res.Types, files: len(res.Files), generate: time.Since(start)}
	pkgDir := filepath.Join(dir, pkgName)
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		return nil, err
	}
	if err := generator.WriteDir(pkgDir, res.Files); err != nil {
		return nil, err
	}
	for _, f := range res.Files {
		m.lines += bytes.Count(f.Data, []byte("\n"))
		m.bytes += int64(len(f.Data))
	}
	typ, err := getProductsType(res.Files)
	if err != nil {
		return nil, err
	}
	if err := writeModule(dir, root, typ); err != nil {
		return nil, err
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local", "GOCACHE="+filepath.Join(dir, "gocache"))
	// Seed the cache with everything but the generated package.
	deps, err := run(dir, env, "list", "-deps", "-f", "{{.ImportPath}}", "./decode", "./decodejson")
	if err != nil {
		return nil, err
	}
	var seed []string
	for _, p := range strings.Fields(deps) {
		if !strings.HasPrefix(p, modulePath) {
			seed = append(seed, p)
		}
	}
	if _, err := run(dir, env, append([]string{"build"}, seed...)...); err != nil {
		return nil, err
	}
	cmd := exec.Command(goTool(), "build", "./"+pkgName)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start = time.Now()
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go build: %w\n%s", err, out.Bytes())
	}
	m.wall = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// wait4 reports the go command with its reaped children (the
		// compiler); Maxrss is in kilobytes on Linux.
		m.rss = ru.Maxrss * 1024
		m.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for _, b := range []struct {
		name string
		size *int64
	}{{"decode", &m.binDecode}, {"decodejson", &m.binJSON}} {
		bin := filepath.Join(dir, b.name+".bin")
		if _, err := run(dir, env, "build", "-o", bin, "./"+b.name); err != nil {
			return nil, err
		}
		fi, err := os.Stat(bin)
		if err != nil {
			return nil, err
		}
		*b.size = fi.Size()
		fixture := filepath.Join(specDir, "..", "bench", "get-products-response-3.0.26.json")
		if _, err := os.Stat(fixture); err == nil {
			if _, err := runBin(bin, fixture); err != nil && version == "3.0.26" {
				return nil, fmt.Errorf("%s on the fixture: %w", b.name, err)
			}
		}
	}
	return m, nil
}

const modulePath = "gencostmod"

// writeModule writes go.mod, go.sum and the two decoding programs.
func writeModule(dir, root, typ string) error {
	gomod := fmt.Sprintf("module %s\n\ngo 1.26.0\n\nrequire github.com/adcpgen/adcpgen v0.0.0\n\nreplace github.com/adcpgen/adcpgen => %s\n", modulePath, root)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return err
	}
	progs := map[string]string{
		"decode":     pkgName + ".Decode(data, &v)",
		"decodejson": "json.Unmarshal(data, &v)",
	}
	for name, call := range progs {
		imp := ""
		if name == "decodejson" {
			imp = "\t\"encoding/json\"\n"
		}
		prog := fmt.Sprintf(`package main

import (
%s	"fmt"
	"os"

	"%s/%s"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var v %s.%s
	if err := %s; err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("ok")
}
`, imp, modulePath, pkgName, pkgName, typ, call)
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name, "main.go"), []byte(prog), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// getProductsType finds the type generated for the root of
// media-buy/get-products-response.json, by its "Schema:" doc line.
func getProductsType(files []generator.File) (string, error) {
	if name := generator.PreviousOf(files).Name("media-buy/get-products-response.json"); name != "" {
		return name, nil
	}
	return "", errors.New("no type for media-buy/get-products-response.json")
}

func run(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command(goTool(), args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args[:1], " "), err, errb.Bytes())
	}
	return out.String(), nil
}

func runBin(bin string, args ...string) (string, error) {
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%w: %s", err, out)
	}
	return string(out), nil
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}
