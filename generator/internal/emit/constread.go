package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
)

// constReader renders the reader of a builtin fixed to a const where no
// property holds it (array items, map values, union arms):
// wire.ConstReader(`"plz"`, "plz") checks the JSON and stores the value.
func constReader(r *ir.Ref) *jen.Statement {
	n := r.Const.Node
	var value jen.Code
	switch {
	case n.Kind == jsonsrc.String:
		value = jen.Lit(n.Str)
	case n.Kind == jsonsrc.Bool:
		value = jen.Lit(n.Bool)
	case r.Builtin == ir.Int:
		i, _ := strconv.ParseInt(n.Str, 10, 64)
		value = jen.Lit(i) // int64(5)
	default:
		x, _ := strconv.ParseFloat(n.Str, 64)
		value = jen.Lit(x) // a float constant: float64
	}
	return wireQ("ConstReader").Call(jen.Lit(r.Const.JSON()), value)
}
