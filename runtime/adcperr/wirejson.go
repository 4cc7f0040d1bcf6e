package adcperr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// WireJSON returns the adcp_error object a seller sends and checks it the
// way buyers will: code a string of 1-64 characters, message present,
// recovery transient, correctable or terminal (omitted when empty, as
// Level 1 sellers do), retry_after as whole seconds in [1, 3600], details
// an object, at most 4096 bytes in all. An error extracted from a response
// (Raw set) is passed through unchanged, after the same size and code
// checks, so intermediaries never drop recovery, retry_after or details.
func (e *Error) WireJSON() (json.RawMessage, error) {
	if e == nil {
		return nil, errors.New("adcp error: nil")
	}
	if len(e.Raw) > 0 {
		v, err := wire.ParseLenient(e.Raw)
		if err != nil {
			return nil, fmt.Errorf("adcp error %s: raw object: %w", untrusted.Sanitize(e.Code), err)
		}
		if err := Check(v); err != nil {
			return nil, fmt.Errorf("adcp error %s: %w", untrusted.Sanitize(e.Code), err)
		}
		return v.AppendCompact(nil), nil
	}
	if e.Code == "" || utf16Len(e.Code) > MaxCodeLength {
		return nil, fmt.Errorf("adcp error: code %q is not 1-64 characters", e.Code)
	}
	if e.Message == "" {
		return nil, fmt.Errorf("adcp error %s: message is required", e.Code)
	}
	if e.Recovery != "" && !e.Recovery.Valid() {
		return nil, fmt.Errorf("adcp error %s: recovery %q is not transient, correctable or terminal", e.Code, e.Recovery)
	}
	var b bytes.Buffer
	b.WriteString(`{"code":`)
	writeJSON(&b, e.Code)
	b.WriteString(`,"message":`)
	writeJSON(&b, e.Message)
	if e.Recovery != "" {
		b.WriteString(`,"recovery":`)
		writeJSON(&b, string(e.Recovery))
	}
	if e.RetryAfter > 0 {
		d, _ := NormalizeRetryAfter(e.RetryAfter.Seconds())
		b.WriteString(`,"retry_after":`)
		b.WriteString(strconv.FormatInt(int64(d/time.Second), 10))
	}
	if e.Field != "" {
		b.WriteString(`,"field":`)
		writeJSON(&b, e.Field)
	}
	if e.Suggestion != "" {
		b.WriteString(`,"suggestion":`)
		writeJSON(&b, e.Suggestion)
	}
	if len(e.Issues) > 0 {
		b.WriteString(`,"issues":`)
		writeJSON(&b, e.Issues)
	}
	if e.Details != nil {
		d, err := objectJSON(e.Details)
		if err != nil {
			return nil, fmt.Errorf("adcp error %s: details: %w", e.Code, err)
		}
		b.WriteString(`,"details":`)
		b.Write(d)
	}
	b.WriteByte('}')
	if n := b.Len(); n > MaxErrorBytes {
		return nil, fmt.Errorf("adcp error %s: %d bytes, more than the %d buyers accept (shrink details)", e.Code, n, MaxErrorBytes)
	}
	return json.RawMessage(b.Bytes()), nil
}

// MarshalJSON writes WireJSON.
func (e *Error) MarshalJSON() ([]byte, error) { return e.WireJSON() }

func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings and Issues always encode
	b.Truncate(b.Len() - 1)
}

// objectJSON turns details into compact JSON text that must be an object:
// raw bytes, or a value json.Marshal encodes (a generated details type).
func objectJSON(data any) ([]byte, error) {
	var raw []byte
	switch d := data.(type) {
	case json.RawMessage:
		raw = d
	case []byte:
		raw = d
	case wire.Encodable:
		var err error
		if raw, err = wire.Marshal(d); err != nil {
			return nil, err
		}
	default:
		var err error
		if raw, err = json.Marshal(d); err != nil {
			return nil, err
		}
	}
	v, err := wire.ParseLenient(raw)
	if err != nil {
		return nil, err
	}
	if !v.IsObject() {
		return nil, errors.New("want a JSON object")
	}
	return v.AppendCompact(nil), nil
}
