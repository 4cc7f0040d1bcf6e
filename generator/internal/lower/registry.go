package lower

import (
	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/load"
)

// BuildRegistry derives tools, error codes and error-details types.
func BuildRegistry(set *load.Set, pkg *ir.Package) (*ir.Registry, error) {
	return nil, nil
}
