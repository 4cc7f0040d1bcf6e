package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// emitHandshake writes the compile-time check that the runtime the package
// links supports generated-code version v (see runtime/wireimpl's
// EnforceVersion): a mismatched runtime fails the build with an error
// naming SupportPackageIsVersionN instead of a confusing one elsewhere.
func emitHandshake(f *jen.File, v int) {
	f.Comment(fmt.Sprintf("// This package was generated for version %d of the adcpgen runtime. These constants", v))
	f.Comment("// fail to compile against a runtime that cannot run it: regenerate the package with")
	f.Comment("// the adcpgen of the module version you require (see package wireimpl).")
	f.Const().Defs(
		jen.Id("_").Op("=").Add(implQ(fmt.Sprintf("SupportPackageIsVersion%d", v))),
		jen.Id("_").Op("=").Add(implQ("EnforceVersion")).Call(jen.Lit(v).Op("-").Add(implQ("MinVersion"))),
		jen.Id("_").Op("=").Add(implQ("EnforceVersion")).Call(implQ("MaxVersion").Op("-").Lit(v)),
	)
}
