// Package schemas embeds adcpgen's own JSON Schemas (draft-07) for the AdCP
// core the project's founding documents describe: the error object, the
// standard error-details shapes, the task status vocabulary, the MCP
// response envelope and the MCP webhook payload. They are written here,
// not copied from the published spec, and are what `adcpgen generate` uses
// when no --spec is given.
package schemas

import "embed"

// FS holds the schema tree (core/, enums/, error-details/).
//
//go:embed core enums error-details
var FS embed.FS

// Version labels this tree in generated provenance.
const Version = "adcpgen-core-2"
