package roundtrip

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"text/template"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// ModulePath is the temporary module's path; package v3_1_19 of it is
// imported as ModulePath + "/v3_1_19".
const ModulePath = "adcpgenharness"

// Version is a spec version to generate: Source is a schema tree directory
// or a .tgz bundle.
type Version struct {
	Version string
	Source  string
}

// PackageName is the Go package (and directory) name of a version:
// "3.2.0-beta.3" → "v3_2_0_beta_3".
func PackageName(version string) string {
	return "v" + strings.NewReplacer(".", "_", "-", "_").Replace(version)
}

// GeneratePackage generates the Go package for the tree at source into dir,
// as package name. When buildTag is set, every file gets a //go:build line
// so that the enclosing module builds without it (for gitignored
// directories inside this module).
func GeneratePackage(source, dir, name, buildTag string) (*generator.Result, error) {
	tree, err := spec.Open(source)
	if err != nil {
		return nil, err
	}
	res, err := generator.Generate(generator.Options{
		Tree:     tree,
		Package:  name,
		SpecName: "AdCP " + tree.Version,
		Source:   filepath.Base(source),
		Command:  "go run ./internal/roundtrip (generated for tests; never committed)",
	})
	if err != nil {
		return nil, fmt.Errorf("generate %s: %w", source, err)
	}
	files := res.Files
	if buildTag != "" {
		files = make([]generator.File, len(res.Files))
		for i, f := range res.Files {
			files[i] = generator.File{Name: f.Name, Data: append([]byte("//go:build "+buildTag+"\n\n"), f.Data...)}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return nil, err
		}
	}
	return res, nil
}

//go:embed harness.go.tmpl
var harnessSource string

var harnessTemplate = template.Must(template.New("harness").Parse(harnessSource))

// WriteModule writes into dir a Go module holding one generated package
// per version and the harness program (package main at the root). root is
// this repository's module root (for the replace directive and go.sum).
func WriteModule(dir, root string, versions []Version) error {
	type pkg struct{ Version, Name string }
	var pkgs []pkg
	for _, v := range versions {
		name := PackageName(v.Version)
		if _, err := GeneratePackage(v.Source, filepath.Join(dir, name), name, ""); err != nil {
			return err
		}
		pkgs = append(pkgs, pkg{v.Version, name})
	}
	gomod := fmt.Sprintf("module %s\n\ngo 1.26.0\n\nrequire github.com/adcpgen/adcpgen v0.0.0\n\nreplace github.com/adcpgen/adcpgen => %s\n", ModulePath, root)
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
	var main bytes.Buffer
	if err := harnessTemplate.Execute(&main, pkgs); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.go"), main.Bytes(), 0o644)
}

// Build compiles the module in dir to dir/harness. The generated packages
// are compiled without optimisation (-N -l): that halves the compile time
// and memory of these large packages, and the harness is about behaviour,
// not speed. -trimpath keeps the build cache valid across temporary
// directories, so a second run links from the cache.
func Build(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "harness")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.CommandContext(ctx, goTool(), "build", "-trimpath", "-gcflags="+ModulePath+"/...=-N -l", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build in %s: %w\n%s", dir, err, out.Bytes())
	}
	return bin, nil
}

// goTool finds the go command ("go test" puts its own first on $PATH).
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

// ModuleRoot finds this repository's module root above the working
// directory.
func ModuleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil && bytes.HasPrefix(data, []byte("module github.com/adcpgen/adcpgen\n")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("roundtrip: no github.com/adcpgen/adcpgen go.mod above " + wd)
		}
	}
}
