// Package goldentest holds tests only: it decodes payloads with the golden
// packages in generator/testdata/golden. It lives apart from the generator's
// own tests so regenerating the goldens (go test ./generator -run TestGolden
// -update) never depends on them compiling first.
package goldentest
