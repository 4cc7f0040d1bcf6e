package extract

import (
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The typed step. Extraction keeps the sender's bytes as they were; these
// methods decode them into dst, a generated type, with its strict decoder,
// which rejects prototype keys, duplicate keys and wrong types. A failure
// comes back as Result.Failure says: the *adcperr.Error the seller sent, a
// Problem, ErrUnstructuredFailure or ErrNoData; a decoding failure wraps
// the *wire.DecodeError (Example_buyerFlow decodes get_products).

// DecodeMCP extracts a CallToolResult or JSON-RPC response (see MCP) and
// decodes its data into dst.
func (x *Extractor) DecodeMCP(envelope []byte, dst wire.Decodable) error {
	return decode(x.MCP(envelope), dst)
}

// DecodeA2A extracts an A2A task, event, stream response or JSON-RPC
// response (see A2A) and decodes its data into dst.
func (x *Extractor) DecodeA2A(envelope []byte, dst wire.Decodable) error {
	return decode(x.A2A(envelope), dst)
}

// DecodeWebhook extracts a webhook payload (see Webhook) and decodes its
// data into dst.
func (x *Extractor) DecodeWebhook(payload []byte, dst wire.Decodable) error {
	return decode(x.Webhook(payload), dst)
}

func decode(r *Result, dst wire.Decodable) error {
	if err := r.Failure(); err != nil {
		return err
	}
	if err := wire.Unmarshal(r.Data, dst); err != nil {
		return fmt.Errorf("decoding %s as %T: %w", r.DataPath, dst, err)
	}
	return nil
}
