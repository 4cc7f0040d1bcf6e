// Package extract is the buyer side of AdCP: it takes the envelope a
// transport delivered (an MCP tool result or JSON-RPC response, an A2A task
// or stream event, a webhook payload), extracts the success data or the
// structured AdCP error as the specification's algorithms say, and decodes
// the data into a generated type.
//
// An Extractor is built from the Spec of the package you generated, which
// classifies error codes sent without a recovery field and types their
// details:
//
//	x := extract.New(adcp.Spec())
//	var products adcp.GetProductsResponse
//	err := x.DecodeMCP(body, &products) // or DecodeA2A, DecodeWebhook
//	var e *adcperr.Error
//	if errors.As(err, &e) && e.Action() == adcperr.ActionRetry { /* wait e.RetryAfter */ }
//
// The algorithms follow JavaScript JSON.parse semantics where the
// specification's reference code relies on them: the last of duplicate keys
// wins, "__proto__" is plain data, and presence checks use JavaScript
// truthiness (isError: "false" is an error, adcp_error: 0 is absent).
// Extraction never schema-validates and hands back the sender's bytes; the
// Decode methods run the strict generated decoders. Size caps (1 MiB for
// structuredContent and each text item, 4096 bytes for an error) keep
// memory bounded by the input.
package extract
