package a2aserver

import (
	"net/http"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// CardPath is where agents publish their card (a2asrv.WellKnownAgentCardPath).
const CardPath = a2asrv.WellKnownAgentCardPath

// AgentCard is the seller's A2A agent card: one skill per tool srv serves
// in any of its releases (seller.Server.Releases), get_adcp_capabilities included (buyers treat an agent without it as
// AdCP 2), the JSON-RPC endpoint opts.URL, and a Bearer security scheme
// when srv authenticates.
func AgentCard(srv *seller.Server, opts Options) *a2a.AgentCard {
	name := opts.Name
	if name == "" {
		name = "AdCP seller"
	}
	desc := opts.Description
	if desc == "" {
		desc = "An AdCP " + srv.Spec().Version() + " agent. Send a DataPart {\"skill\": <tool>, \"input\": {...}}."
	}
	version := opts.Version
	if version == "" {
		version = srv.Spec().Version()
	}
	card := &a2a.AgentCard{
		Name:               name,
		Description:        desc,
		URL:                opts.URL,
		PreferredTransport: a2a.TransportProtocolJSONRPC,
		ProtocolVersion:    "0.3.0",
		Version:            version,
		Provider:           opts.Provider,
		DefaultInputModes:  []string{"application/json", "text/plain"},
		DefaultOutputModes: []string{"application/json", "text/plain"},
		Capabilities:       a2a.AgentCapabilities{Streaming: true},
		Skills:             []a2a.AgentSkill{},
	}
	listed := map[string]bool{}
	for _, t := range releaseTools(srv) {
		if listed[t.Name] {
			continue
		}
		listed[t.Name] = true
		tags := []string{"adcp"}
		if t.Protocol != "" {
			tags = append(tags, t.Protocol)
		}
		desc := t.Summary
		if desc == "" {
			desc = "AdCP task " + t.Name
		}
		card.Skills = append(card.Skills, a2a.AgentSkill{
			ID: t.Name, Name: t.Name, Description: desc, Tags: tags,
			InputModes: []string{"application/json"}, OutputModes: []string{"application/json"},
		})
	}
	if srv.Authenticated() {
		card.SecuritySchemes = a2a.NamedSecuritySchemes{"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer"}}
		card.Security = []a2a.SecurityRequirements{{"bearer": a2a.SecuritySchemeScopes{}}}
	}
	return card
}

// NewCardHandler serves AgentCard at CardPath (mount it there).
func NewCardHandler(srv *seller.Server, opts Options) http.Handler {
	return a2asrv.NewStaticAgentCardHandler(AgentCard(srv, opts))
}

// releaseTools lists the tools of every release of srv, the default's
// first.
func releaseTools(srv *seller.Server) []registry.Tool {
	var out []registry.Tool
	for _, r := range srv.Releases() {
		out = append(out, r.Tools()...)
	}
	return out
}
