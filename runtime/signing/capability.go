package signing

import (
	"bytes"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/signing/internal/jsonread"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Capability is an endpoint's request_signing block in
// get_adcp_capabilities (security.mdx "Transport capability
// advertisement"): whether it verifies signatures, its content-digest
// policy, and the operations and protocol methods it verifies, shadows or
// requires them for. A seller writes it (Block); a buyer reads the
// seller's (ParseCapability) to know what to sign.
type Capability struct {
	Supported bool
	// CoversContentDigest is covers_content_digest; "" when the block does
	// not say, which a 3.0/3.1 endpoint means as "either".
	CoversContentDigest DigestPolicy
	Policy              OperationPolicy
}

// ParseCapability reads the request_signing block of a
// get_adcp_capabilities response (the payload object), strictly: a
// duplicate key anywhere refuses the response. A response without the
// block is the zero Capability: the endpoint verifies no signature.
func ParseCapability(caps []byte) (Capability, error) {
	if err := wire.Valid(caps); err != nil {
		return Capability{}, fmt.Errorf("signing: get_adcp_capabilities: %w", err)
	}
	v := wire.Lenient(caps)
	if !v.IsObject() {
		return Capability{}, fmt.Errorf("signing: get_adcp_capabilities: not an object")
	}
	rs := v.Get("request_signing")
	if !rs.Present() || rs.IsNull() {
		return Capability{}, nil
	}
	if !rs.IsObject() {
		return Capability{}, fmt.Errorf("signing: get_adcp_capabilities: /request_signing is not an object")
	}
	var c Capability
	if s := rs.Get("supported"); s.Present() {
		switch string(s.Raw()) {
		case "true":
			c.Supported = true
		case "false":
		default:
			return Capability{}, fmt.Errorf("signing: get_adcp_capabilities: /request_signing/supported is not a boolean")
		}
	}
	if d := rs.Get("covers_content_digest"); d.Present() {
		s, _ := d.AsString()
		switch p := DigestPolicy(s); p {
		case DigestRequired, DigestEither, DigestForbidden:
			c.CoversContentDigest = p
		default:
			return Capability{}, fmt.Errorf("signing: get_adcp_capabilities: /request_signing/covers_content_digest %s is not required, either or forbidden", d.Raw())
		}
	}
	for _, f := range c.lists() {
		list, problem := jsonread.StringArray(rs.Get(f.name))
		if problem != "" {
			return Capability{}, fmt.Errorf("signing: get_adcp_capabilities: /request_signing/%s %s", f.name, problem)
		}
		*f.list = append(*f.list, list...)
	}
	return c, nil
}

type capList struct {
	name string
	list *[]string
	// since is the minor 3.x version whose schema defines the member.
	since int
}

func (c *Capability) lists() []capList {
	p := &c.Policy
	return []capList{
		{"required_for", &p.RequiredFor, 0},
		{"warn_for", &p.WarnFor, 0},
		{"supported_for", &p.SupportedFor, 0},
		{"protocol_methods_required_for", &p.ProtocolMethodsRequiredFor, 1},
		{"protocol_methods_warn_for", &p.ProtocolMethodsWarnFor, 1},
		{"protocol_methods_supported_for", &p.ProtocolMethodsSupportedFor, 1},
	}
}

// Lists reports whether the endpoint verifies signatures on the call, as
// one of its operations or protocol methods (any list): what a signer
// signs. A body registering a webhook authentication block is signed too
// whenever the endpoint supports signing (CarriesWebhookAuthentication).
func (c Capability) Lists(call Invocation) bool {
	return c.Supported && c.Policy.Mode(call) != ModeNone
}

// Block writes the request_signing block as AdCP version v's
// get_adcp_capabilities schema defines it: the protocol_methods_ lists
// from 3.1 (3.0 has none; a 3.0 policy listing protocol methods is an
// error), covers_content_digest always (3.2 requires it explicitly, as
// "required"; "" writes the profile's). The policy must validate.
func (c Capability) Block(v string) ([]byte, error) {
	minor, err := signingMinor(v)
	if err != nil {
		return nil, err
	}
	if err := c.Policy.Validate(); err != nil {
		return nil, err
	}
	digest := c.CoversContentDigest
	if digest == "" {
		digest = DigestEither
		if minor >= 2 {
			digest = DigestRequired
		}
	}
	if minor >= 2 && digest != DigestRequired {
		return nil, fmt.Errorf("signing: AdCP %s advertises covers_content_digest \"required\" only, not %q", v, digest)
	}
	var b bytes.Buffer
	b.WriteString(`{"supported":`)
	b.WriteString(fmt.Sprint(c.Supported))
	b.WriteString(`,"covers_content_digest":`)
	b.Write(wire.AppendQuoted(nil, string(digest)))
	for _, f := range c.lists() {
		if f.since > minor {
			if len(*f.list) > 0 {
				return nil, fmt.Errorf("signing: AdCP %s has no request_signing.%s", v, f.name)
			}
			continue
		}
		b.WriteString(`,"` + f.name + `":[`)
		for i, s := range *f.list {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(wire.AppendQuoted(nil, s))
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
