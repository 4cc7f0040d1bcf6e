package adcperr

import (
	"strconv"
	"time"

	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// SafeMessage is the message sanitised and cut to 256 bytes.
func (e *Error) SafeMessage() string {
	return untrusted.SanitizeTruncate(e.Message, untrusted.MaxMessageBytes)
}

// SafeSuggestion is the suggestion sanitised and cut to 512 bytes.
func (e *Error) SafeSuggestion() string {
	return untrusted.SanitizeTruncate(e.Suggestion, untrusted.MaxSuggestionBytes)
}

// SafeField is the field sanitised and cut to 256 bytes. It is for display
// and highlighting only: never use it as a path into an object.
func (e *Error) SafeField() string {
	return untrusted.SanitizeTruncate(e.Field, untrusted.MaxMessageBytes)
}

// LLMContext renders the error for a model's context as untrusted data:
// one JSON object inside explicit delimiters,
//
//	<adcp_seller_error trust="untrusted">{"code":…,"recovery":…}</adcp_seller_error>
//
// Strings are sanitised, message and suggestion truncated, and '<', '>' and
// '&' escaped so seller text cannot close the delimiter. details are left
// out: raw details never belong in prompts; add untrusted.SanitizeJSON
// output yourself if a model must see them.
func (e *Error) LLMContext() string {
	var b []byte
	b = append(b, `<adcp_seller_error trust="untrusted">{"code":`...)
	b = untrusted.AppendQuotedHTMLSafe(b, untrusted.Sanitize(e.Code))
	b = append(b, `,"recovery":`...)
	b = untrusted.AppendQuotedHTMLSafe(b, string(e.Recovery))
	b = append(b, `,"action":`...)
	b = untrusted.AppendQuotedHTMLSafe(b, string(e.Action()))
	if m := e.SafeMessage(); m != "" {
		b = append(b, `,"message":`...)
		b = untrusted.AppendQuotedHTMLSafe(b, m)
	}
	if s := e.SafeSuggestion(); s != "" {
		b = append(b, `,"suggestion":`...)
		b = untrusted.AppendQuotedHTMLSafe(b, s)
	}
	if f := e.SafeField(); f != "" {
		b = append(b, `,"field":`...)
		b = untrusted.AppendQuotedHTMLSafe(b, f)
	}
	if e.RetryAfter > 0 {
		b = append(b, `,"retry_after_seconds":`...)
		b = strconv.AppendInt(b, int64(e.RetryAfter/time.Second), 10)
	}
	b = append(b, "}</adcp_seller_error>"...)
	return string(b)
}

// CheckURLs checks the URLs the error's details carry (setup_url,
// policy_url) with untrusted.CheckSellerURL against the seller's domain. It
// returns one error per bad URL; nil means every URL present is acceptable.
func (e *Error) CheckURLs(sellerDomain string) []error {
	details, err := wire.ParseLenient(e.RawDetails())
	if err != nil {
		return nil // no details object to check
	}
	var errs []error
	for _, key := range []string{"setup_url", "policy_url"} {
		v := details.Get(key)
		if !v.Present() {
			continue
		}
		s, ok := v.AsString()
		if !ok {
			errs = append(errs, &untrusted.URLError{URL: "details." + key, Reason: untrusted.ErrURLMalformed})
			continue
		}
		if _, err := untrusted.CheckSellerURL(s, sellerDomain); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}
