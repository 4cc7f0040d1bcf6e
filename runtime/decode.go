package runtime

import (
	"encoding/json"
	"fmt"
)

// Decoder is the constraint of the typed step: a pointer to T with a strict
// UnmarshalJSON, which every adcpgen-generated type has (it rejects
// __proto__, constructor and prototype keys, duplicate keys and wrong
// types).
type Decoder[T any] interface {
	*T
	json.Unmarshaler
}

// Decode decodes extracted data into a new T with T's own strict decoder.
// Extraction keeps the sender's bytes as they were; this is the step that
// rejects prototype keys and other hostile shapes. nil data is ErrNoData.
func Decode[T any, PT Decoder[T]](data json.RawMessage) (*T, error) {
	if data == nil {
		return nil, ErrNoData
	}
	v := new(T)
	if err := PT(v).UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("decoding extracted data as %T: %w", v, err)
	}
	return v, nil
}

// DecodeResult decodes a Result's data, or returns its Failure: the *Error,
// a problem, ErrUnstructuredFailure or ErrNoData.
func DecodeResult[T any, PT Decoder[T]](r *Result) (*T, error) {
	if err := r.Failure(); err != nil {
		return nil, err
	}
	return Decode[T, PT](r.Data)
}

// DecodeMCP extracts an MCP CallToolResult with the zero Extractor and
// decodes its data into T: DecodeMCP[adcp.GetProductsResponse](body).
func DecodeMCP[T any, PT Decoder[T]](envelope []byte) (*T, error) {
	return DecodeResult[T, PT](ExtractMCP(envelope))
}

// DecodeJSONRPC does the same for a JSON-RPC response holding a
// CallToolResult.
func DecodeJSONRPC[T any, PT Decoder[T]](envelope []byte) (*T, error) {
	return DecodeResult[T, PT](ExtractJSONRPC(envelope))
}

// DecodeA2A does the same for an A2A task, event or stream envelope.
func DecodeA2A[T any, PT Decoder[T]](envelope []byte) (*T, error) {
	return DecodeResult[T, PT](ExtractA2A(envelope))
}

// DecodeWebhook does the same for a webhook payload.
func DecodeWebhook[T any, PT Decoder[T]](payload []byte) (*T, error) {
	return DecodeResult[T, PT](ExtractWebhook(payload))
}
