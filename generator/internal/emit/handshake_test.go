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

	"github.com/adcpgen/adcpgen/runtime/wireimpl"
)

// typeCheck type-checks src, a package file, against this checkout's
// runtime (imp reads it from source).
func typeCheck(t *testing.T, fset *token.FileSet, imp types.Importer, src []byte) []string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// A file name inside the module lets the source importer find the runtime.
	file, err := parser.ParseFile(fset, filepath.Join(wd, "handshake_gen.go"), src, 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
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

// handshake renders a package holding only the handshake for version v.
func handshake(t *testing.T, v int) []byte {
	f := jen.NewFile("handshake")
	emitHandshake(f, v)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// v2Handshake is the handshake of code generated for version 2, before
// runtime/wireimpl: everything it used was in runtime/wire.
const v2Handshake = `package handshake

import "github.com/adcpgen/adcpgen/runtime/wire"

const (
	_ = wire.SupportPackageIsVersion2
	_ = wire.EnforceVersion(2 - wire.MinVersion)
	_ = wire.EnforceVersion(wire.MaxVersion - 2)
)

var _ = wire.Desc{Shape: wire.ShapeString}
`

func TestHandshake(t *testing.T) {
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	if errs := typeCheck(t, fset, imp, handshake(t, wireimpl.GenVersion)); len(errs) != 0 {
		t.Fatalf("code for this runtime's version does not compile: %v", errs)
	}
	cases := []struct {
		name string
		src  []byte
		want []string
	}{
		{"generated for a newer runtime", handshake(t, wireimpl.MaxVersion+1), []string{
			"undefined: wireimpl.SupportPackageIsVersion" + strconv.Itoa(wireimpl.MaxVersion+1), "wireimpl.EnforceVersion"}},
		{"generated for a runtime too old for this one", handshake(t, wireimpl.MinVersion-1), []string{"wireimpl.EnforceVersion"}},
		{"generated for version 2, before runtime/wireimpl", []byte(v2Handshake), []string{
			"undefined: wire.SupportPackageIsVersion2", "undefined: wire.EnforceVersion", "undefined: wire.Desc"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := strings.Join(typeCheck(t, fset, imp, c.src), "\n")
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("errors do not name %q:\n%s", w, errs)
				}
			}
		})
	}
}
