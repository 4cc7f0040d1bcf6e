// Package templates is data, not an API: the text templates adcpgen's
// generator renders for the fixed, human-facing files it writes (the
// generated package's doc.go, the coverage report of generate --report).
// Go types themselves are built with jennifer, not templates. The
// generator reads FS; nothing else should.
package templates

import "embed"

// FS holds the templates (*.tmpl).
//
//go:embed *.tmpl
var FS embed.FS
