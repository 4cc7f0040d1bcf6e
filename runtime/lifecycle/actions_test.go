package lifecycle_test

import (
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/lifecycle"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// The available_actions storyboard's product template (3.1).
var template = []lifecycle.AllowedAction{
	{Action: "increase_budget", Modes: []string{"self_serve"}, SLA: json.RawMessage(`{"response_max":"PT5M","completion_max":"PT1H"}`)},
	{Action: "extend_flight", Modes: []string{"requires_approval"}, TermsRef: "terms://available-actions/extension"},
	{Action: "cancel", Modes: []string{"requires_approval"}},
	{Action: "decrease_budget", Modes: []string{"self_serve"}, AllowedStatuses: []string{"paused"}},
}

func TestAvailable(t *testing.T) {
	actions := func(as []lifecycle.AvailableAction) (out []string) {
		for _, a := range as {
			out = append(out, a.Action+":"+a.Mode)
		}
		return out
	}
	for _, tc := range []struct {
		status string
		want   []string
	}{
		{"active", []string{"increase_budget:self_serve", "extend_flight:requires_approval", "cancel:requires_approval"}},
		{"paused", []string{"increase_budget:self_serve", "extend_flight:requires_approval", "cancel:requires_approval", "decrease_budget:self_serve"}},
		{"canceled", nil},
	} {
		if got := actions(lifecycle.Available(template, tc.status)); !equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.status, got, tc.want)
		}
	}
}

// Each refusal of the storyboard, its details valid against every 3.1+
// release's action-not-allowed schema.
func TestCheckActions(t *testing.T) {
	for _, tc := range []struct {
		status, action, reason string
		recovery               registry.Recovery
	}{
		{"active", "increase_budget", "", ""},
		{"active", "extend_flight", "mode_mismatch", registry.Correctable},
		{"active", "cancel", "mode_mismatch", registry.Correctable},
		{"active", "decrease_budget", "wrong_status", registry.Correctable},
		{"paused", "decrease_budget", "", ""},
		{"active", "pause", "not_supported_on_product", registry.Terminal},
	} {
		err := lifecycle.CheckActions(template, tc.status, []string{tc.action})
		if tc.reason == "" {
			if err != nil {
				t.Errorf("%s in %s: %v", tc.action, tc.status, err)
			}
			continue
		}
		if err == nil || err.Code != "ACTION_NOT_ALLOWED" || err.Recovery != tc.recovery {
			t.Fatalf("%s in %s: %+v", tc.action, tc.status, err)
		}
		details, _ := json.Marshal(err.Details)
		var d struct {
			Attempted string                      `json:"attempted_action"`
			Reason    string                      `json:"reason"`
			Available []lifecycle.AvailableAction `json:"currently_available_actions"`
		}
		if json.Unmarshal(details, &d) != nil || d.Attempted != tc.action || d.Reason != tc.reason || len(d.Available) == 0 {
			t.Errorf("%s in %s: details %s", tc.action, tc.status, details)
		}
		for _, v := range []string{"3.1.19", "3.2.0-beta.5"} {
			tree, _ := specseller.Open(t, v)
			val, err := validate.New(tree, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if issues, err := val.Validate("error-details/action-not-allowed.json", details); err != nil || len(issues) > 0 {
				t.Errorf("%s: details invalid: %v %v", v, issues, err)
			}
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
