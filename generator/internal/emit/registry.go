package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
)

// emitRegistry writes the tool and error-code registries.
func emitRegistry(f *jen.File, r *ir.Registry) {
	_ = r
	f.Comment("// Registry placeholder.")
}
