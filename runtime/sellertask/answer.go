package sellertask

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// A task's answers are kept in the store as one JSON object each:
// {"message": ..., "body": {...}} for a response or interim payload,
// {"message": ..., "adcp_error": {...}, "context": {...}} for an error. The
// body and the error are the bytes the seller encoded, kept as they are.

// encodeAnswer is the stored form of a.
func encodeAnswer(a *seller.Answer) ([]byte, error) {
	out := []byte(`{"message":`)
	out = wire.AppendQuoted(out, a.Message)
	if a.Error != nil {
		w, err := a.Error.WireJSON()
		if err != nil {
			return nil, err
		}
		out = append(out, `,"adcp_error":`...)
		out = append(out, w...)
		if len(a.Context) > 0 {
			out = append(out, `,"context":`...)
			out = append(out, a.Context...)
		}
		return append(out, '}'), nil
	}
	if !wire.Lenient(a.Body).IsObject() {
		return nil, errors.New("sellertask: answer without a JSON object body")
	}
	out = append(out, `,"body":`...)
	out = append(out, a.Body...)
	return append(out, '}'), nil
}

// decodeAnswer reads what encodeAnswer wrote; spec gives an error without
// a recovery its class. nil for nil.
func decodeAnswer(stored []byte, spec *registry.Spec) (*seller.Answer, error) {
	if stored == nil {
		return nil, nil
	}
	v, err := wire.ParseLenient(stored)
	if err != nil || !v.IsObject() {
		return nil, fmt.Errorf("sellertask: stored answer is not a JSON object")
	}
	a := &seller.Answer{}
	a.Message, _ = v.Get("message").AsString()
	if ae := v.Get("adcp_error"); ae.IsObject() {
		e := &adcperr.Error{Raw: json.RawMessage(ae.Raw())}
		e.Code, _ = ae.Get("code").AsString()
		e.Message, _ = ae.Get("message").AsString()
		rec, _ := ae.Get("recovery").AsString()
		e.Recovery = registry.Recovery(rec)
		if !e.Recovery.Valid() {
			e.Recovery, _ = spec.Recovery(e.Code)
		}
		a.Error = e
		if c := v.Get("context"); c.IsObject() {
			a.Context = json.RawMessage(c.Raw())
		}
		return a, nil
	}
	body := v.Get("body")
	if !body.IsObject() {
		return nil, fmt.Errorf("sellertask: stored answer has neither a body nor an adcp_error")
	}
	a.Body = json.RawMessage(body.Raw())
	return a, nil
}
