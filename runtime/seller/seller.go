package seller

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

// adcpErrorJSON is {"adcp_error": <wire error>}.
func adcpErrorJSON(e *adcperr.Error) (json.RawMessage, error) {
	w, err := e.WireJSON()
	if err != nil {
		return nil, err
	}
	return json.RawMessage(`{"adcp_error":` + string(w) + `}`), nil
}

// ErrorMIMEType is the optional metadata.mimeType of an error DataPart.
const ErrorMIMEType = "application/vnd.adcp.error+json"

// TerseText is a one-sentence summary of an error for a text item or
// TextPart: "RATE_LIMITED: retry in 5s." It uses only the code, class and
// delay, never seller prose.
func TerseText(e *adcperr.Error) string {
	s := untrusted.Sanitize(e.Code)
	switch e.Recovery {
	case registry.Transient:
		if e.RetryAfter > 0 {
			d, _ := adcperr.NormalizeRetryAfter(e.RetryAfter.Seconds())
			return s + ": retry in " + strconv.FormatInt(int64(d/time.Second), 10) + "s."
		}
		return s + ": temporary failure, retry later."
	case registry.Correctable:
		return s + ": the request needs a change."
	case registry.Terminal:
		return s + ": needs human attention."
	}
	return s + "."
}
