package main

import (
	"context"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/formatdecl"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// checkSelectors refuses a package whose direct canonical format selector
// (format_kind and params, 3.1 and later, which 3.0's request drops) does
// not satisfy its product's format_options (runtime/formatdecl): a
// selector that leaves out a dimension the product fixes would buy
// creatives the product cannot run.
func (s *sales) checkSelectors(ctx context.Context) error {
	c := seller.CallFrom(ctx)
	if c == nil {
		return nil
	}
	var bad error
	i := 0
	wire.Lenient(c.Member("packages")).Elems(func(pkg wire.Lenient) bool {
		at := fmt.Sprintf("packages[%d]", i)
		i++
		id, _ := pkg.Get("product_id").AsString()
		// The product as given (a later release's, whose format_options
		// the handlers' projection may not hold).
		raw := s.catalog.given(id)
		if raw == nil || !pkg.Get("format_kind").Present() {
			return true
		}
		if e := formatdecl.CheckSelector(raw, pkg.Raw(), at); e != nil {
			bad = e
			return false
		}
		return true
	})
	return bad
}
