package signing

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
)

// Code is a stable error code of the AdCP transport error taxonomy
// (security.mdx "Transport error taxonomy", "Webhook error taxonomy" and the
// brand_json_url discovery codes). A verifier answers it, and only it, in
// WWW-Authenticate: Signature error="<code>".
type Code string

// Request-signing codes (security.mdx "Transport error taxonomy").
const (
	CodeRequired             Code = "request_signature_required"
	CodeTargetURIMalformed   Code = "request_target_uri_malformed"
	CodeHeaderMalformed      Code = "request_signature_header_malformed"
	CodeParamsIncomplete     Code = "request_signature_params_incomplete"
	CodeTagInvalid           Code = "request_signature_tag_invalid"
	CodeAlgNotAllowed        Code = "request_signature_alg_not_allowed"
	CodeWindowInvalid        Code = "request_signature_window_invalid"
	CodeComponentsIncomplete Code = "request_signature_components_incomplete"
	CodeComponentsUnexpected Code = "request_signature_components_unexpected"
	CodeKeyUnknown           Code = "request_signature_key_unknown"
	CodeKeyPurposeInvalid    Code = "request_signature_key_purpose_invalid"
	CodeKeyRevoked           Code = "request_signature_key_revoked"
	CodeRevocationStale      Code = "request_signature_revocation_stale"
	CodeInvalid              Code = "request_signature_invalid"
	CodeDigestMismatch       Code = "request_signature_digest_mismatch"
	CodeBodyMalformed        Code = "request_body_malformed"
	CodeReplayed             Code = "request_signature_replayed"
	CodeRateAbuse            Code = "request_signature_rate_abuse"
	CodeJWKSUnavailable      Code = "request_signature_jwks_unavailable"
	CodeJWKSUntrusted        Code = "request_signature_jwks_untrusted"
)

// Key-discovery codes: the brand_json_url chain (security.mdx "Discovering
// an agent's signing keys via brand_json_url").
const (
	CodeBrandJSONURLMissing     Code = "request_signature_brand_json_url_missing"
	CodeCapabilitiesUnreachable Code = "request_signature_capabilities_unreachable"
	CodeBrandJSONUnreachable    Code = "request_signature_brand_json_unreachable"
	CodeBrandJSONMalformed      Code = "request_signature_brand_json_malformed"
	CodeBrandOriginMismatch     Code = "request_signature_brand_origin_mismatch"
	CodeAgentNotInBrandJSON     Code = "request_signature_agent_not_in_brand_json"
	CodeBrandJSONAmbiguous      Code = "request_signature_brand_json_ambiguous"
	CodeKeyOriginMismatch       Code = "request_signature_key_origin_mismatch"
	CodeKeyOriginMissing        Code = "request_signature_key_origin_missing"
)

// Webhook-signing codes (security.mdx "Webhook error taxonomy").
const (
	CodeWebhookHeaderMalformed      Code = "webhook_signature_header_malformed"
	CodeWebhookParamsIncomplete     Code = "webhook_signature_params_incomplete"
	CodeWebhookTagInvalid           Code = "webhook_signature_tag_invalid"
	CodeWebhookAlgNotAllowed        Code = "webhook_signature_alg_not_allowed"
	CodeWebhookWindowInvalid        Code = "webhook_signature_window_invalid"
	CodeWebhookComponentsIncomplete Code = "webhook_signature_components_incomplete"
	CodeWebhookKeyUnknown           Code = "webhook_signature_key_unknown"
	CodeWebhookKeyPurposeInvalid    Code = "webhook_signature_key_purpose_invalid"
	CodeWebhookKeyRevoked           Code = "webhook_signature_key_revoked"
	CodeWebhookRevocationStale      Code = "webhook_signature_revocation_stale"
	CodeWebhookInvalid              Code = "webhook_signature_invalid"
	CodeWebhookDigestMismatch       Code = "webhook_signature_digest_mismatch"
	CodeWebhookBodyMalformed        Code = "webhook_body_malformed"
	CodeWebhookTargetURIMalformed   Code = "webhook_target_uri_malformed"
	CodeWebhookReplayed             Code = "webhook_signature_replayed"
	CodeWebhookRateAbuse            Code = "webhook_signature_rate_abuse"
	CodeWebhookModeMismatch         Code = "webhook_mode_mismatch"
)

// webhookCodes maps each request code the checklist produces to its
// webhook counterpart: the two checklists are one with "three profile
// substitutions" and webhook_-prefixed codes.
var webhookCodes = map[Code]Code{
	CodeTargetURIMalformed:   CodeWebhookTargetURIMalformed,
	CodeHeaderMalformed:      CodeWebhookHeaderMalformed,
	CodeParamsIncomplete:     CodeWebhookParamsIncomplete,
	CodeTagInvalid:           CodeWebhookTagInvalid,
	CodeAlgNotAllowed:        CodeWebhookAlgNotAllowed,
	CodeWindowInvalid:        CodeWebhookWindowInvalid,
	CodeComponentsIncomplete: CodeWebhookComponentsIncomplete,
	// The webhook profile has no content-digest opt-out, hence no
	// "unexpected" code; an unsupported component is incomplete coverage.
	CodeComponentsUnexpected: CodeWebhookComponentsIncomplete,
	CodeKeyUnknown:           CodeWebhookKeyUnknown,
	CodeKeyPurposeInvalid:    CodeWebhookKeyPurposeInvalid,
	CodeKeyRevoked:           CodeWebhookKeyRevoked,
	CodeRevocationStale:      CodeWebhookRevocationStale,
	CodeInvalid:              CodeWebhookInvalid,
	CodeDigestMismatch:       CodeWebhookDigestMismatch,
	CodeBodyMalformed:        CodeWebhookBodyMalformed,
	CodeReplayed:             CodeWebhookReplayed,
	CodeRateAbuse:            CodeWebhookRateAbuse,
}

// Rejection is a signature check that failed: the spec's code, the checklist
// step that produced it, and the header, component or parameter at fault.
// Code is what goes on the wire; the rest is for the verifier's logs
// (security.mdx: "Servers MUST NOT echo internal verification details
// beyond the stable code").
type Rejection struct {
	Code Code
	// Step is the checklist step: "0" for the pre-check, "1" to "14", "9a".
	Step string
	// Where names what failed: a header ("Signature-Input"), a covered
	// component ("@authority"), a signature parameter ("expires"), "body",
	// or a discovery document ("brand.json").
	Where string
	// Reason says what was wrong, for logs.
	Reason string
	// Err is the underlying error, if any.
	Err error
}

func (e *Rejection) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	if e.Step != "" || e.Where != "" {
		b.WriteString(" (")
		if e.Step != "" {
			b.WriteString("step ")
			b.WriteString(e.Step)
			if e.Where != "" {
				b.WriteString(", ")
			}
		}
		b.WriteString(e.Where)
		b.WriteString(")")
	}
	if e.Reason != "" {
		b.WriteString(": ")
		b.WriteString(e.Reason)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Rejection) Unwrap() error { return e.Err }

// Is reports a rejection for an unknown keyid as keys.ErrUnknown, so a
// key source (keys.Resolvers) knows a discovery source's unknown keyid from
// its other failures.
func (e *Rejection) Is(target error) bool {
	return target == keys.ErrUnknown && (e.Code == CodeKeyUnknown || e.Code == CodeWebhookKeyUnknown)
}

// fail builds an *Rejection with a formatted reason.
func fail(code Code, step, where, format string, args ...any) *Rejection {
	return &Rejection{Code: code, Step: step, Where: where, Reason: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of the first *Rejection in err's chain, or "" when
// there is none.
func CodeOf(err error) Code {
	var e *Rejection
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// IsWebhookCode reports whether c belongs to the webhook taxonomy, whose
// codes a webhook sender treats as terminal for the delivery.
func IsWebhookCode(c Code) bool { return strings.HasPrefix(string(c), "webhook_") }

// Challenge is the WWW-Authenticate value for a rejected signature:
// `Signature error="<code>"`, with no realm and no other parameter
// (security.mdx "WWW-Authenticate format").
func Challenge(c Code) string { return `Signature error="` + string(c) + `"` }

// WriteChallenge answers a rejected signature: HTTP 401 with
// WWW-Authenticate: Signature error="<code>" and the code as a small JSON
// body. The code is err's, or request_signature_invalid when err carries
// none; nothing else of err reaches the peer.
func WriteChallenge(w http.ResponseWriter, err error) {
	c := CodeOf(err)
	if c == "" {
		c = CodeInvalid
	}
	h := w.Header()
	h.Set("WWW-Authenticate", Challenge(c))
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = w.Write([]byte(`{"error":"` + string(c) + `"}`))
}

// ParseChallenge reads the code from a WWW-Authenticate value written as
// Challenge writes it, tolerating other parameters (RFC 7235); ok is false
// when the value is not a Signature challenge with an error parameter.
func ParseChallenge(v string) (c Code, ok bool) {
	scheme, rest, _ := strings.Cut(strings.TrimSpace(v), " ")
	if !strings.EqualFold(scheme, "Signature") {
		return "", false
	}
	for _, p := range strings.Split(rest, ",") {
		k, val, found := strings.Cut(strings.TrimSpace(p), "=")
		if !found || !strings.EqualFold(strings.TrimSpace(k), "error") {
			continue
		}
		val = strings.TrimSpace(val)
		if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
			val = val[1 : len(val)-1]
		}
		if val == "" {
			return "", false
		}
		return Code(val), true
	}
	return "", false
}
