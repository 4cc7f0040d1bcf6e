package validate_test

import (
	"fmt"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// Validating a tool's payload against the version's schemas: an Issue per
// violation, shaped like an entry of AdCP's error.issues[] (a JSON pointer,
// the keyword, a message). With a published release, open its tree with
// spec.Resolve (or spec.Open) instead of the test tree.
func ExampleValidator_ValidateTool() {
	tree, err := sellertest.OpenTree()
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
