package examples

import (
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// Validate is docs/validation.md's example: a get_products response body
// checked against the schemas of the tree at source (a bundle .tgz or a
// schema tree directory).
func Validate(source string, body []byte) ([]validate.Issue, error) {
	// snippet: validate
	tree, err := spec.Open(source) // "protocol/3.0.26.tgz", or a schema tree directory
	if err != nil {
		return nil, err
	}
	v, err := validate.New(tree, validate.Options{})
	if err != nil {
		return nil, err
	}
	issues, err := v.ValidateTool("get_products", validate.Response, body)
	// or v.Validate("media-buy/get-products-response.json", body), or by $id in either published style
	// end snippet
	return issues, err
}
