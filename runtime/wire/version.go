package wire

// The version of the contract between generated code and this package
// (the methods generated types implement, the helpers they call, and the
// runtime/registry types they fill in). It changes when either side can no
// longer work with the other's old form.
const (
	// GenVersion is the version the adcpgen of this module generates.
	GenVersion = 2
	// MinVersion is the oldest generated code this package supports.
	MinVersion = 1
	// MaxVersion is the newest generated code this package supports.
	MaxVersion = GenVersion
)

// EnforceVersion is used by generated code to check GenVersion at compile
// time: it writes
//
//	_ = wire.EnforceVersion(N - wire.MinVersion)
//	_ = wire.EnforceVersion(wire.MaxVersion - N)
//
// for its own version N. When N is out of range one of the constants is
// negative and does not convert to this unsigned type, so the build fails.
type EnforceVersion uint

// SupportPackageIsVersion1 is referenced by code generated for version 1.
// Its absence from the compiler's error ("undefined:
// wire.SupportPackageIsVersion2") says the generated package is newer than
// this runtime: regenerate it with the adcpgen your module requires.
const SupportPackageIsVersion1 = true

// SupportPackageIsVersion2 is referenced by code generated for version 2,
// whose types are described by Descs the engine walks (DecodeWith,
// EncodeWith).
const SupportPackageIsVersion2 = true
