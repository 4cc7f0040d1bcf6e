package lifecycle

import (
	"encoding/json"
	"slices"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// AllowedAction is one entry of a product's allowed_actions[] (AdCP 3.1,
// core/product-allowed-action.json): a mutation a buy of the product may
// make, in which modes, in which statuses (all the non-final ones when
// AllowedStatuses is empty), with an optional SLA and terms reference.
type AllowedAction struct {
	Action          string          `json:"action"`
	Modes           []string        `json:"modes"`
	AllowedStatuses []string        `json:"allowed_statuses,omitempty"`
	SLA             json.RawMessage `json:"sla,omitempty"`
	TermsRef        string          `json:"terms_ref,omitempty"`
}

// AvailableAction is one entry of a buy's available_actions[] (3.1,
// core/media-buy-available-action.json): an action the buy may take now,
// in the one mode in effect.
type AvailableAction struct {
	Action   string          `json:"action"`
	Mode     string          `json:"mode"`
	SLA      json.RawMessage `json:"sla,omitempty"`
	TermsRef string          `json:"terms_ref,omitempty"`
}

// The action modes (enums/media-buy-action-mode.json).
const (
	SelfServe            = "self_serve"
	ConditionalSelfServe = "conditional_self_serve"
	RequiresApproval     = "requires_approval"
)

// Available resolves a product's allowed_actions[] template into what a
// buy in status may do now: the entries whose statuses include status
// (any status but a final one when they name none), each in its first
// mode. A final buy may do nothing.
func Available(template []AllowedAction, status string) []AvailableAction {
	var out []AvailableAction
	for _, a := range template {
		if !allowedIn(a, status) || len(a.Modes) == 0 {
			continue
		}
		out = append(out, AvailableAction{Action: a.Action, Mode: a.Modes[0], SLA: a.SLA, TermsRef: a.TermsRef})
	}
	return out
}

func allowedIn(a AllowedAction, status string) bool {
	if MediaBuyFinal(status) {
		return false
	}
	return len(a.AllowedStatuses) == 0 || slices.Contains(a.AllowedStatuses, status)
}

// CheckActions checks the actions an update_media_buy request maps to
// (attempted, media-buy-valid-action values) against the buy's template in
// status: each must be in the template (else not_supported_on_product),
// allowed in status (wrong_status) and self-serve, possibly conditionally
// (mode_mismatch: one that requires approval is not made by a direct
// update). The first refusal is ACTION_NOT_ALLOWED with the details AdCP
// asks for (error-details/action-not-allowed.json): the attempted action,
// the reason and the buy's available actions now; its recovery is
// correctable for wrong_status and mode_mismatch, terminal otherwise. nil
// when every action may go ahead.
func CheckActions(template []AllowedAction, status string, attempted []string) *adcperr.Error {
	for _, act := range attempted {
		i := slices.IndexFunc(template, func(a AllowedAction) bool { return a.Action == act })
		reason := ""
		switch {
		case i < 0:
			reason = "not_supported_on_product"
		case !allowedIn(template[i], status):
			reason = "wrong_status"
		case len(template[i].Modes) == 0 || template[i].Modes[0] == RequiresApproval:
			reason = "mode_mismatch"
		}
		if reason == "" {
			continue
		}
		available := Available(template, status)
		if available == nil {
			available = []AvailableAction{}
		}
		recovery := registry.Correctable
		if reason == "not_supported_on_product" {
			recovery = registry.Terminal
		}
		return &adcperr.Error{
			Code:     "ACTION_NOT_ALLOWED",
			Message:  "This media buy cannot " + act + " now (" + reason + "): see details.currently_available_actions",
			Recovery: recovery,
			Details: map[string]any{
				"attempted_action":            act,
				"reason":                      reason,
				"currently_available_actions": available,
			},
		}
	}
	return nil
}
