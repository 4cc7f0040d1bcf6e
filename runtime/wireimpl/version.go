package wireimpl

// The version of the contract between generated code and the runtime (the
// method generated types implement, the descriptors they declare, and the
// runtime/registry types they fill in). It changes when either side can no
// longer work with the other's old form.
const (
	// GenVersion is the version the adcpgen of this module generates.
	GenVersion = 3
	// MinVersion is the oldest generated code this runtime supports.
	MinVersion = 3
	// MaxVersion is the newest generated code this runtime supports.
	MaxVersion = GenVersion
)

// EnforceVersion is used by generated code to check GenVersion at compile
// time: it writes
//
//	_ = wireimpl.EnforceVersion(N - wireimpl.MinVersion)
//	_ = wireimpl.EnforceVersion(wireimpl.MaxVersion - N)
//
// for its own version N. When N is out of range one of the constants is
// negative and does not convert to this unsigned type, so the build fails.
type EnforceVersion uint

// SupportPackageIsVersion3 is referenced by code generated for version 3,
// whose types implement wire.Value with one method, WireDesc, returning a
// Desc declared with this package. Its absence from the compiler's error
// ("undefined: wireimpl.SupportPackageIsVersion4") says the generated
// package is newer than this runtime: regenerate it with the adcpgen your
// module requires.
const SupportPackageIsVersion3 = true
