package buyer

import (
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// encodeRequest runs a request's strict encoder. When it fails, the
// *wire.DecodeError names the value: the JSON pointer of a NaN or
// infinite number, raw JSON that is not strict JSON, a union with no arm.
func encodeRequest(tool string, req wire.Encodable) ([]byte, error) {
	args, err := wire.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("buyer: %s: encoding the request: %w", tool, err)
	}
	return args, nil
}
