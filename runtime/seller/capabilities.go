package seller

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

const capabilitiesTool = "get_adcp_capabilities"

// knownProtocols are the supported_protocols values of AdCP 3; tools of
// other protocols (account, property, protocol itself) are not claimed.
var knownProtocols = []string{"media_buy", "signals", "governance", "sponsored_intelligence", "creative", "brand"}

// capabilitiesEntry answers get_adcp_capabilities from what is registered,
// until the seller registers its own handler.
func (s *Server) capabilitiesEntry(t registry.Tool) *entry {
	return &entry{
		tool: t,
		auto: true,
		decode: func(args []byte) (any, error) {
			if t.NewRequest == nil {
				return nil, nil
			}
			v := t.NewRequest()
			return v, wire.Unmarshal(args, v)
		},
		run: func(_ context.Context, c *Call) *Answer {
			body, err := s.capabilities()
			if err != nil {
				s.log.Error("adcp: automatic get_adcp_capabilities not sent: Options.Capabilities is not a JSON object", "err", err.Error())
				return ErrorAnswer(s.internalError())
			}
			v := envelopeValues{status: string(task.Completed), contextID: c.echoedContextID(), version: c.Release}
			if body, _, err = fillEnvelope(c.Tool.Name, body, c.Tool.Envelope, v, false, c.Context()); err == nil {
				err = s.checkResponse(c.Tool, task.Completed, body)
			}
			if err != nil {
				what := "complete Options.Capabilities with what the schema asks of this seller"
				if len(s.cfg.Capabilities) == 0 {
					what = "set Options.Capabilities"
				}
				s.log.Error("adcp: automatic get_adcp_capabilities not sent: "+what, "err", err.Error())
				return ErrorAnswer(s.internalError())
			}
			return &Answer{Status: task.Completed, Body: body, echoed: c}
		},
	}
}

// capabilities builds the automatic answer: Options.Capabilities with
// adcp.major_versions and adcp.supported_versions (every release of the
// endpoint, AddRelease), adcp.idempotency, supported_protocols,
// request_signing and identity.brand_json_url added where absent.
func (s *Server) capabilities() ([]byte, error) {
	base := []byte(s.cfg.Capabilities)
	if len(base) == 0 {
		base = []byte("{}")
	}
	v, err := wire.ParseLenient(base)
	if err != nil {
		return nil, err
	}
	adcp := []byte(v.Get("adcp"))
	if adcp == nil {
		adcp = []byte("{}")
	}
	if !wire.Lenient(adcp).Get("idempotency").Present() {
		if adcp, err = withMember(adcp, "idempotency", []byte(`{"supported":false}`)); err != nil {
			return nil, err
		}
	}
	if versions := s.group.set.Versions(); len(versions) > 0 && !wire.Lenient(adcp).Get("supported_versions").Present() {
		raw, _ := json.Marshal(versions)
		if adcp, err = withMember(adcp, "supported_versions", raw); err != nil {
			return nil, err
		}
	}
	if majors := s.group.set.Majors(); len(majors) > 0 && !wire.Lenient(adcp).Get("major_versions").Present() {
		raw, _ := json.Marshal(majors)
		if adcp, err = withMember(adcp, "major_versions", raw); err != nil {
			return nil, err
		}
	}
	out := []byte(v)
	if !v.Get("supported_protocols").Present() {
		var protocols []string
		for _, p := range sortedProtocols(s.Tools()) {
			if slices.Contains(knownProtocols, p) {
				protocols = append(protocols, p)
			}
		}
		if protocols == nil {
			protocols = []string{}
		}
		raw, _ := json.Marshal(protocols)
		if out, err = withMember(out, "supported_protocols", raw); err != nil {
			return nil, err
		}
	}
	if out, err = s.addBlocks(out); err != nil {
		return nil, err
	}
	if out, err = withMember(out, "adcp", adcp); err != nil {
		return nil, err
	}
	return s.signingCapabilities(out)
}

// withMember returns obj, a JSON object, with its top-level member name set
// to value: replaced where it stands, else added first. obj is not modified.
func withMember(obj []byte, name string, value []byte) ([]byte, error) {
	out, ok := wire.Lenient(obj).WithMember(name, value)
	if !ok {
		return nil, fmt.Errorf("seller: setting %q: not a JSON object", name)
	}
	return out, nil
}
