package validate_test

import (
	"fmt"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// Validating a tool's payload against the version's schemas: an Issue per
// violation, shaped like an entry of AdCP's error.issues[] (a JSON pointer,
// the keyword, a message). The tree here is a tiny one in memory (the
// manifest, get_products' two schemas, the context object they share);
// with a published release, open its tree with spec.Resolve (or
// spec.Open) instead.
func ExampleValidator_ValidateTool() {
	tree, err := spec.OpenFS(fstest.MapFS{
		"manifest.json": {Data: []byte(`{"adcp_version": "3.90.0-example", "tools": {"get_products": {"protocol": "media-buy",
			"request_schema": "media-buy/get-products-request.json", "response_schema": "media-buy/get-products-response.json"}},
			"error_codes": {"INVALID_REQUEST": {"recovery": "correctable"}}}`)},
		"media-buy/get-products-request.json": {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#",
			"$id": "/schemas/3.90.0-example/media-buy/get-products-request.json", "type": "object", "required": ["buying_mode"],
			"properties": {"buying_mode": {"enum": ["brief", "wholesale", "refine"]}, "brief": {"type": "string"},
				"context": {"$ref": "/schemas/3.90.0-example/core/context.json"}}}`)},
		"media-buy/get-products-response.json": {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#",
			"$id": "/schemas/3.90.0-example/media-buy/get-products-response.json", "type": "object", "required": ["products"]}`)},
		"core/context.json": {Data: []byte(`{"$schema": "http://json-schema.org/draft-07/schema#",
			"$id": "/schemas/3.90.0-example/core/context.json", "type": "object"}`)},
	}, "example", spec.KindEmbedded)
	if err != nil {
		panic(err)
	}
	v, err := validate.New(tree, validate.Options{})
	if err != nil {
		panic(err)
	}
	for _, payload := range []string{
		`{"buying_mode":"brief","brief":"CTV"}`,
		`{"buying_mode":"sometimes","brief":5}`,
	} {
		issues, err := v.ValidateTool("get_products", validate.Request, []byte(payload))
		if err != nil {
			panic(err)
		}
		fmt.Println(len(issues), "issues")
		for _, is := range issues {
			fmt.Printf("  %s %s\n", is.Pointer, is.Keyword)
		}
	}
	// Output:
	// 0 issues
	// 2 issues
	//   /brief type
	//   /buying_mode enum
}
