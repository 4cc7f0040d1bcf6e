package runtime

import (
	"go/ast"
	"go/parser"
	"go/types"
	"testing"
)

// No exported function or method of a runtime package returns a type of
// that package a user cannot name: go doc would show a result its reader
// cannot declare, and the package's API would have a part no doc
// describes (spec.Unpack returns an fs.FS, not its own file system type).
func TestNoExportedFuncReturnsUnexportedType(t *testing.T) {
	checked := 0
	for _, pf := range publicFiles(t, parser.SkipObjectResolution) {
		fset, f := pf.fset, pf.f
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() || fn.Type.Results == nil || (fn.Recv != nil && !exportedRecv(fn.Recv)) {
				continue
			}
			params := typeParams(fn)
			for _, res := range fn.Type.Results.List {
				if name := unexportedIn(res.Type, params); name != "" {
					t.Errorf("%s: %s returns %s, which its package does not export", fset.Position(fn.Pos()), fn.Name.Name, name)
				}
			}
			checked++
		}
	}
	if checked < 200 {
		t.Fatalf("only %d exported functions checked", checked)
	}
}

// exportedRecv reports a method of an exported type.
func exportedRecv(recv *ast.FieldList) bool {
	x := recv.List[0].Type
	if s, ok := x.(*ast.StarExpr); ok {
		x = s.X
	}
	switch r := x.(type) {
	case *ast.IndexExpr:
		x = r.X
	case *ast.IndexListExpr:
		x = r.X
	}
	id, ok := x.(*ast.Ident)
	return ok && id.IsExported()
}

// typeParams are the names of fn's type parameters and its receiver's.
func typeParams(fn *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	if fn.Type.TypeParams != nil {
		for _, f := range fn.Type.TypeParams.List {
			for _, n := range f.Names {
				out[n.Name] = true
			}
		}
	}
	if fn.Recv != nil {
		ast.Inspect(fn.Recv.List[0].Type, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				out[id.Name] = true
			}
			return true
		})
	}
	return out
}

// unexportedIn returns the first unexported type of the package itself
// that the type expression x names ("" when there is none).
func unexportedIn(x ast.Expr, params map[string]bool) string {
	found := ""
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			return false // another package's name
		case *ast.FuncType:
			return false // a callback's own signature
		case *ast.Ident:
			if found == "" && !n.IsExported() && !params[n.Name] && types.Universe.Lookup(n.Name) == nil {
				found = n.Name
			}
		}
		return true
	})
	return found
}
