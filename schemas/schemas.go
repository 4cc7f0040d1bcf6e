// Package schemas is data, not an API: adcpgen's own JSON Schemas
// (draft-07) for the AdCP core the project's founding documents describe
// (the error object, the standard error-details shapes, the task status
// vocabulary, the MCP response envelope and the MCP webhook payload),
// written here, not copied from the published spec. `adcpgen generate`
// uses them when no --spec is given, and generated/adcp is generated from
// them; to generate from them yourself, run adcpgen without --spec.
package schemas

import "embed"

// FS holds the schema tree (core/, enums/, error-details/).
//
//go:embed core enums error-details
var FS embed.FS

// Version labels this tree in generated provenance.
const Version = "adcpgen-core-2"
