package emit

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// typeCheck renders a package holding only the handshake for version v and
// type-checks it against this checkout's runtime/wire (imp reads it from
// source).
func typeCheck(t *testing.T, fset *token.FileSet, imp types.Importer, v int) []string {
	t.Helper()
	f := jen.NewFile("handshake")
	emitHandshake(f, v)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// A file name inside the module lets the source importer find runtime/wire.
	file, err := parser.ParseFile(fset, filepath.Join(wd, "handshake_gen.go"), buf.Bytes(), 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	var errs []string
	conf := types.Config{
		Importer: imp,
		Error:    func(err error) { errs = append(errs, err.Error()) },
	}
	if _, err := conf.Check("handshake", fset, []*ast.File{file}, nil); err != nil && len(errs) == 0 {
		errs = append(errs, err.Error())
	}
	return errs
}

func TestHandshake(t *testing.T) {
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	if errs := typeCheck(t, fset, imp, wire.GenVersion); len(errs) != 0 {
		t.Fatalf("code for this runtime's version does not compile: %v", errs)
	}
	cases := []struct {
		name    string
		version int
		want    []string
	}{
		{"generated for a newer runtime", wire.MaxVersion + 1, []string{
			"undefined: wire.SupportPackageIsVersion" + strconv.Itoa(wire.MaxVersion+1), "wire.EnforceVersion"}},
		{"generated for a runtime too old for this one", wire.MinVersion - 1, []string{"wire.EnforceVersion"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := strings.Join(typeCheck(t, fset, imp, c.version), "\n")
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("errors do not name %q:\n%s", w, errs)
				}
			}
		})
	}
}
