// Package spec opens AdCP schema trees: a directory, a protocol bundle
// (.tgz, checked against its .sha256 sidecar and unpacked safely in memory),
// or an fs.FS such as the generator's embedded default.
//
// A Tree is rooted at the folder that holds core/, enums/, ... so paths such
// as "core/error.json" name schemas the same way whatever the source.
package spec
