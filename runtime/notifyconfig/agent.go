package notifyconfig

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// AgentTool is sync_agent_notification_configs (AdCP 3.2), which
// registers the caller's agent-level subscribers (capabilities.changed).
const AgentTool = "sync_agent_notification_configs"

// AgentOwner is the owner key of a principal's agent-level set in a
// Keeper shared with account-level sets.
func AgentOwner(principal string) string { return "agent:" + principal }

// AgentToolOptions configure ServeAgentTool.
type AgentToolOptions struct {
	// URLs is the webhook URL policy (the zero value: https, public
	// addresses only).
	URLs untrusted.PushURLPolicy
}

// ServeAgentTool serves sync_agent_notification_configs on srv, a server
// of a release that has it, with k keeping each caller's set (owner
// AgentOwner of the authenticated principal): the submitted array is the
// caller's whole set, [] clears it, dry_run applies nothing; a refusal
// (an entry's schema issue, a rule Read applies, a failed proof of
// control) answers action "failed" with errors[] and leaves the caller's
// set as it was. The tool is not public: the transports refuse an
// anonymous call (HTTP 401) before it runs. The seller declares the
// capability beside it (CapabilityChanges).
func ServeAgentTool(srv *seller.Server, k *Keeper, o AgentToolOptions) error {
	tool, ok := srv.Spec().Tool(AgentTool)
	if !ok {
		return fmt.Errorf("notifyconfig: AdCP %s has no %s", srv.Spec().Version(), AgentTool)
	}
	srv.HandleRaw(seller.RawTool{
		Name:             AgentTool,
		Summary:          tool.Summary,
		RequestSchema:    tool.RequestSchema,
		ResponseSchema:   tool.ResponseSchema,
		OwnsSchemaIssues: true,
		Handler:          func(ctx context.Context, c *seller.Call) *seller.Answer { return serveAgent(ctx, c, k, o) },
	})
	return nil
}

// serveAgent answers one call of the agent-level tool.
func serveAgent(ctx context.Context, c *seller.Call, k *Keeper, o AgentToolOptions) *seller.Answer {
	if c.Principal.Anonymous() {
		return seller.ErrorAnswer(&adcperr.Error{Code: "AUTH_REQUIRED", Recovery: "correctable",
			Message: "Agent-level subscribers belong to an authenticated caller"})
	}
	var within []validate.Issue
	for _, is := range c.SchemaIssues() {
		rest, ok := strings.CutPrefix(is.Pointer, "/notification_configs")
		if !ok || (rest != "" && !strings.HasPrefix(rest, "/")) || rest == "" {
			return seller.ErrorAnswer(&adcperr.Error{Code: "INVALID_REQUEST", Recovery: "correctable", Field: strings.TrimPrefix(is.Pointer, "/"),
				Message: fmt.Sprintf("The request does not match the %s request schema: %s: %s", AgentTool, is.Pointer, is.Message)})
		}
		is.Pointer = rest
		within = append(within, is)
	}
	owner := AgentOwner(c.Principal.ID)
	dry := string(c.Member("dry_run")) == "true"
	set, refusals := Read(c.Member("notification_configs"), ReadOptions{Scope: AgentLevel, URLs: o.URLs, Issues: within})
	if len(refusals) == 0 {
		change, applied, err := k.Sync(ctx, owner, set, dry)
		var ae *adcperr.Error
		switch {
		case errors.As(err, &ae):
			refusals = []*adcperr.Error{ae}
		case err != nil:
			return seller.ErrorAnswer(&adcperr.Error{Code: "SERVICE_UNAVAILABLE", Recovery: "transient",
				Message: "The subscribers could not be saved; retry"})
		default:
			return agentAnswer(string(change), dry, applied, nil)
		}
	}
	current, err := k.List(ctx, owner)
	if err != nil {
		current = nil
	}
	return agentAnswer("failed", dry, current, refusals)
}

// agentAnswer is the tool's response.
func agentAnswer(action string, dry bool, set []Config, errs []*adcperr.Error) *seller.Answer {
	echo, err := Echo(set)
	if err != nil {
		echo = json.RawMessage("[]")
	}
	body := map[string]any{"action": action, "dry_run": dry, "notification_configs": echo}
	if len(errs) > 0 {
		body["errors"] = errs
	}
	out, err := json.Marshal(body)
	if err != nil {
		return seller.ErrorAnswer(&adcperr.Error{Code: "SERVICE_UNAVAILABLE", Recovery: "transient", Message: "The answer could not be encoded"})
	}
	return &seller.Answer{Status: task.Completed, Body: out}
}

// CapabilityChanges is the adcp.capability_changes block of a seller
// serving ServeAgentTool (3.2): capabilities_version, the revision the
// capabilities.changed webhooks fence reads with (CapabilitiesVersion of
// the rest of the document), the cache TTL (60 s to 7 days), and the
// notifications it accepts subscribers for.
func CapabilityChanges(capabilitiesVersion string, ttl time.Duration) json.RawMessage {
	secs := int(ttl / time.Second)
	secs = max(60, min(secs, 604800))
	out, _ := json.Marshal(map[string]any{
		"capabilities_version": capabilitiesVersion,
		"cache_ttl_seconds":    secs,
		"notifications": map[string]any{
			"supported":         true,
			"registration_task": AgentTool,
			"event_types":       agentEvents,
		},
	})
	return out
}

// CapabilitiesVersion is an opaque revision of a capabilities document:
// it changes whenever the document's bytes do.
func CapabilitiesVersion(doc []byte) string {
	sum := sha256.Sum256(doc)
	return "cap-" + hex.EncodeToString(sum[:12])
}
