package signing

import (
	"context"
	"errors"
)

// Verdict is what an endpoint does with a request, given its signature,
// the call's Mode and whether another credential authenticated it.
type Verdict uint8

const (
	// Accept: proceed. Decision.Signer is the verified signer, or nil when
	// the request proceeds on its other credential.
	Accept Verdict = iota + 1
	// AcceptWithWarning: a warn_for call whose signature failed proceeds
	// on its other credential; record Decision.Err, establish no signer.
	AcceptWithWarning
	// Reject: answer 401 with WWW-Authenticate: Signature
	// error="<code of Decision.Err>" (WriteChallenge).
	Reject
	// Unauthenticated: no valid credential at all; answer as the endpoint
	// answers unauthenticated calls. Decision.Err, when set, is the
	// signature failure to record.
	Unauthenticated
	// Fail: the verifier's replay store or revocation source failed
	// (Decision.Err); answer a server error and do not proceed.
	Fail
)

func (a Verdict) String() string {
	return [...]string{"", "accept", "accept_with_warning", "reject", "reject_unauthenticated", "fail"}[a]
}

// Decision is the outcome of Verifier.Decide.
type Decision struct {
	Verdict Verdict
	Signer  *VerifiedSigner
	Err     error
}

// Decide applies the composition rules around the checklist
// (security.mdx "Verifier checklist (requests)" pre-check, "Composition
// with fallback authenticators", "Transport capability advertisement")
// for a call in mode whose other credential (bearer, API key, mTLS) was,
// or was not, valid:
//
//   - A signed request is verified whatever its mode; a verified one is
//     accepted with its signer. A failure rejects, except in warn_for,
//     where a well-formed signature that fails leaves the call to its other
//     credential. A malformed or half-present signature pair always
//     rejects.
//   - An unsigned request whose body registers a webhook with an
//     authentication block is refused (request_signature_required), other
//     credential or not; so is an unsigned required_for call with no other
//     credential. Otherwise an unsigned call rests on its other credential.
//
// Decide never reads the body to choose the profile; the body is looked at
// only for the webhook authentication block of an unsigned request. With a
// webhook profile every message must be signed: an unsigned one is
// refused with webhook_signature_header_malformed (a buyer that registered
// HMAC delivery verifies those elsewhere).
func (v *Verifier) Decide(ctx context.Context, m *Message, mode Mode, fallback bool) Decision {
	signer, err := v.Verify(ctx, m)
	switch {
	case err == nil:
		return Decision{Verdict: Accept, Signer: signer}
	case errors.Is(err, ErrUnsigned):
		if v.o.Profile.kind == Request {
			if len(m.Body) > v.o.MaxBodyBytes || CarriesWebhookAuthentication(m.Body) {
				return Decision{Verdict: Reject, Err: fail(CodeRequired, "0", "body",
					"a request registering a webhook authentication block must be signed")}
			}
			if mode == ModeRequired && !fallback {
				return Decision{Verdict: Reject, Err: fail(CodeRequired, "0", "Signature-Input",
					"the operation is in required_for and the request presents no credential")}
			}
		} else {
			// A route verifying RFC 9421 webhooks has no other credential:
			// a buyer that registered HMAC delivery verifies on another path.
			return Decision{Verdict: Reject, Err: fail(CodeWebhookHeaderMalformed, "1", "Signature-Input", "the webhook is not signed")}
		}
		if fallback {
			return Decision{Verdict: Accept}
		}
		return Decision{Verdict: Unauthenticated}
	}
	var e *Rejection
	if !errors.As(err, &e) {
		return Decision{Verdict: Fail, Err: err}
	}
	if mode == ModeWarn && e.Code != CodeHeaderMalformed && e.Code != CodeWebhookHeaderMalformed {
		if fallback {
			return Decision{Verdict: AcceptWithWarning, Err: err}
		}
		return Decision{Verdict: Unauthenticated, Err: err}
	}
	return Decision{Verdict: Reject, Err: err}
}
