// Package extract reads what an AdCP seller sent: it takes the envelope a
// transport delivered (an MCP tool result or JSON-RPC response, an A2A task
// or stream event, a webhook payload), extracts the success data or the
// structured AdCP error as the specification's algorithms say, and decodes
// the data into a generated type.
//
// Most users want runtime/buyer: buyer.Call and the typed client connect,
// call, extract with this package, decode strictly and follow the task to
// the end. Use extract directly for envelopes that arrive some other way (a
// log, a queue, a transport of your own); runtime/mcpsdk and runtime/a2ago
// apply it to go-sdk's and a2a-go's values.
//
// An Extractor is built from the Spec of the package you generated, which
// classifies error codes sent without a recovery field and types their
// details:
//
// The examples show the buyer's flow (Example_buyerFlow: decode, then
// recover by the error's class) and A2A (ExampleExtractor_A2A).
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
