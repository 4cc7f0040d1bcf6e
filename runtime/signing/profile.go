package signing

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"
)

// ProfileKind says which of AdCP's two RFC 9421 profiles a Profile is.
type ProfileKind uint8

const (
	// Request is request signing: a buyer (or any agent calling an AdCP
	// endpoint) signs, the endpoint verifies. Tag adcp/request-signing/v1.
	Request ProfileKind = iota + 1
	// Webhook is webhook signing: the seller signs its push notifications,
	// the buyer's receiver verifies. Tag adcp/webhook-signing/v1.
	Webhook
)

func (k ProfileKind) String() string {
	switch k {
	case Request:
		return "request"
	case Webhook:
		return "webhook"
	}
	return "ProfileKind(" + strconv.Itoa(int(k)) + ")"
}

// The profiles' tags (security.mdx "AdCP RFC 9421 profile", "Webhook
// callbacks"): byte-for-byte, no prefix matching, no case-folding.
const (
	RequestTag = "adcp/request-signing/v1"
	WebhookTag = "adcp/webhook-signing/v1"
)

// Encoding is how the binary values of Signature and Content-Digest are
// written inside their sf-binary colons.
type Encoding uint8

const (
	// EncodingLegacy is the 3.0/3.1 request profile's and the webhook v1
	// profile's override: unpadded base64url. Verifiers also accept the
	// standard alphabet, padded or not, as the published vectors and the
	// JavaScript SDK write Content-Digest that way, but never both
	// alphabets in one value.
	EncodingLegacy Encoding = iota + 1
	// EncodingStructured is the 3.2 request profile: RFC 8941 sf-binary,
	// the standard base64 alphabet with padding; "-" and "_" are malformed.
	EncodingStructured
)

func (e Encoding) String() string {
	switch e {
	case EncodingLegacy:
		return "legacy base64url"
	case EncodingStructured:
		return "RFC 8941 sf-binary"
	}
	return "Encoding(" + strconv.Itoa(int(e)) + ")"
}

// DigestPolicy is a request endpoint's covers_content_digest: whether a
// signature on a request with a body must, may or must not cover
// content-digest.
type DigestPolicy string

const (
	DigestRequired  DigestPolicy = "required"
	DigestEither    DigestPolicy = "either"
	DigestForbidden DigestPolicy = "forbidden"
)

// Profile is everything version-dependent about one endpoint's signatures:
// request or webhook, the binary encoding, the content-digest policy and
// the key purposes accepted. Get one from RequestProfile or WebhookProfile
// with the AdCP version the endpoint serves (a generated package's
// Spec().Version()); it is never chosen from the request.
type Profile struct {
	kind     ProfileKind
	minor    int
	version  string
	encoding Encoding
	digest   DigestPolicy
	keyUses  []string
}

// RequestProfile is the request-signing profile of AdCP version v
// ("3.0.26", "3.1.19", "3.2.0-beta.5"; "3.1" will do): 3.0 and 3.1 use the
// legacy encoding with content-digest "either" (see WithDigest); 3.2 uses
// RFC 8941 sf-binary and requires content-digest on every signed request
// with a body.
func RequestProfile(v string) (Profile, error) {
	minor, err := signingMinor(v)
	if err != nil {
		return Profile{}, err
	}
	p := Profile{kind: Request, minor: minor, version: v, encoding: EncodingLegacy, digest: DigestEither, keyUses: []string{keys.UseRequestSigning}}
	if minor >= 2 {
		p.encoding, p.digest = EncodingStructured, DigestRequired
	}
	return p, nil
}

// WebhookProfile is the webhook-signing profile of AdCP version v: the
// legacy encoding throughout 3.x, content-digest always covered. A 3.0
// receiver accepts only adcp_use "webhook-signing" keys; from 3.1 a
// "request-signing" key is accepted too (the tag separates the profiles).
func WebhookProfile(v string) (Profile, error) {
	minor, err := signingMinor(v)
	if err != nil {
		return Profile{}, err
	}
	p := Profile{kind: Webhook, minor: minor, version: v, encoding: EncodingLegacy, digest: DigestRequired, keyUses: []string{keys.UseWebhookSigning}}
	if minor >= 1 {
		p.keyUses = []string{keys.UseRequestSigning, keys.UseWebhookSigning}
	}
	return p, nil
}

// signingMinor returns the minor version of a 3.x version string; signing
// starts with AdCP 3.0.
func signingMinor(v string) (int, error) {
	s := strings.TrimPrefix(v, "v")
	major, rest, _ := strings.Cut(s, ".")
	minorStr, _, _ := strings.Cut(rest, ".")
	minorStr, _, _ = strings.Cut(minorStr, "-")
	maj, err1 := strconv.Atoi(major)
	minor, err2 := strconv.Atoi(minorStr)
	if err1 != nil || err2 != nil || minor < 0 {
		return 0, fmt.Errorf("signing: %q is not an AdCP version", v)
	}
	if maj != 3 {
		return 0, fmt.Errorf("signing: AdCP %s has no RFC 9421 signing profile this package knows (3.x only)", v)
	}
	return minor, nil
}

// WithDigest returns p with the request endpoint's covers_content_digest
// policy. Only a 3.0/3.1 request profile takes "either" or "forbidden"; a
// 3.2 request profile and every webhook profile require content-digest.
func (p Profile) WithDigest(d DigestPolicy) (Profile, error) {
	switch d {
	case DigestRequired, DigestEither, DigestForbidden:
	default:
		return p, fmt.Errorf("signing: content-digest policy %q is not required, either or forbidden", d)
	}
	if d != DigestRequired && (p.kind != Request || p.encoding == EncodingStructured) {
		return p, fmt.Errorf("signing: the %s profile of AdCP %s requires content-digest; %q is a 3.0/3.1 request posture", p.kind, p.version, d)
	}
	p.digest = d
	return p, nil
}

// Kind is Request or Webhook; zero for the zero Profile.
func (p Profile) Kind() ProfileKind { return p.kind }

// Version is the AdCP version the profile was chosen for.
func (p Profile) Version() string { return p.version }

// Encoding is how Signature and Content-Digest values are written.
func (p Profile) Encoding() Encoding { return p.encoding }

// Digest is the content-digest policy for signatures over a body.
func (p Profile) Digest() DigestPolicy { return p.digest }

// Tag is the tag signature parameter the profile signs and requires.
func (p Profile) Tag() string {
	if p.kind == Webhook {
		return WebhookTag
	}
	return RequestTag
}

// KeyUses lists the adcp_use values a verifying JWK may carry.
func (p Profile) KeyUses() []string { return append([]string(nil), p.keyUses...) }

// DefaultReplayLimit is the per-keyid replay-cache cap the spec recommends
// for the profile: 1,000,000 entries for requests ("Transport replay
// dedup"), 100,000 for webhooks ("Webhook replay dedup sizing").
func (p Profile) DefaultReplayLimit() int {
	if p.kind == Webhook {
		return 100_000
	}
	return 1_000_000
}

// digestEncoding is how a signer writes Content-Digest, as each version's
// published vectors write it: unpadded base64url in the 3.1 request
// profile, padded standard base64 everywhere else (3.0 requests, 3.2
// requests, webhooks; the JavaScript SDK too). Verifiers of the legacy
// profiles accept either alphabet.
func (p Profile) digestEncoding() Encoding {
	if p.kind == Request && p.minor == 1 {
		return EncodingLegacy
	}
	return EncodingStructured
}

func (p Profile) isZero() bool { return p.kind == 0 }

// code maps a request code to this profile's taxonomy.
func (p Profile) code(c Code) Code {
	if p.kind == Webhook {
		if w, ok := webhookCodes[c]; ok {
			return w
		}
	}
	return c
}

func (p Profile) acceptsUse(use string) bool {
	for _, u := range p.keyUses {
		if u == use {
			return true
		}
	}
	return false
}
