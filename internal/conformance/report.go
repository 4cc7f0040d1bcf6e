package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// report is the part of the `adcp storyboard run --json` output (the SDK's
// ComplianceResult) this program reads.
type report struct {
	Summary *struct {
		TotalSteps       int `json:"total_steps"`
		StepsPassed      int `json:"steps_passed"`
		StepsFailed      int `json:"steps_failed"`
		StepsSkipped     int `json:"steps_skipped"`
		StepsNotSelected int `json:"steps_not_selected"`
		// NotSelected are the steps the runner left out of the agent's
		// profile (a vector the transport cannot grade, a phase for a
		// specialism not claimed), each with its storyboard and reason.
		NotSelected []struct {
			Reason       string `json:"reason"`
			StoryboardID string `json:"storyboard_id"`
		} `json:"not_selected"`
	} `json:"summary"`
	// StoryboardsMissingTools are the storyboards that apply to the
	// agent's protocols but need tools it does not serve.
	StoryboardsMissingTools []string `json:"storyboards_missing_tools"`
	OverallStatus           string   `json:"overall_status"`
	StoryboardsExecuted     []string `json:"storyboards_executed"`
	Tracks                  []struct {
		Scenarios []struct {
			Scenario string `json:"scenario"`
			Steps    []struct {
				Step       string `json:"step"`
				Task       string `json:"task"`
				Passed     bool   `json:"passed"`
				Skipped    bool   `json:"skipped"`
				SkipReason string `json:"skip_reason"`
			} `json:"steps"`
		} `json:"scenarios"`
	} `json:"tracks"`
	// Failures lists every failed step (the runner leaves tracks empty for
	// some storyboards, security_baseline among them, but not this).
	Failures []failure `json:"failures"`
}

type failure struct {
	StoryboardID string `json:"storyboard_id"`
	StepID       string `json:"step_id"`
	StepTitle    string `json:"step_title"`
	Task         string `json:"task"`
	Error        string `json:"error"`
	Validation   *struct {
		Check       string          `json:"check"`
		Description string          `json:"description"`
		Expected    json.RawMessage `json:"expected"`
		Actual      json.RawMessage `json:"actual"`
	} `json:"validation"`
}

var errNoSummary = errors.New("no summary in the runner's output")

// parseReport reads the runner's JSON output.
func parseReport(data []byte) (*report, error) {
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("reading the runner's JSON output: %w", err)
	}
	if r.Summary == nil {
		return nil, errNoSummary
	}
	return &r, nil
}

// skipsByStoryboard counts the skipped steps per storyboard (a scenario's
// name without its last part) and reason, in the order the tracks list
// them: "deterministic_testing: missing_tool 2, prerequisite_failed 7".
// after names, per storyboard, the listed failure that made its
// prerequisite_failed skips ("known adcontextprotocol/adcp-client#2867"):
// a runner skips the stateful steps after a failed one, so those skips
// are that failure's, not a specialism's.
func (r *report) skipsByStoryboard(after map[string]string) []string {
	counts := map[string]map[string]int{}
	var order []string
	for _, t := range r.Tracks {
		for _, s := range t.Scenarios {
			sb := s.Scenario
			if i := strings.LastIndex(sb, "/"); i > 0 {
				sb = sb[:i]
			}
			for _, st := range s.Steps {
				if !st.Skipped {
					continue
				}
				reason := st.SkipReason
				if reason == "" {
					reason = "unspecified"
				}
				if cause := after[sb]; cause != "" && reason == "prerequisite_failed" {
					reason += " after " + cause
				}
				if counts[sb] == nil {
					counts[sb] = map[string]int{}
					order = append(order, sb)
				}
				counts[sb][reason]++
			}
		}
	}
	var out []string
	for _, sb := range order {
		var reasons []string
		for reason, n := range counts[sb] {
			reasons = append(reasons, fmt.Sprintf("%s %d", reason, n))
		}
		sort.Strings(reasons)
		out = append(out, sb+": "+strings.Join(reasons, ", "))
	}
	return out
}

// String is one line saying which step failed and why.
func (f failure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s", f.StoryboardID, f.StepID)
	if f.Task != "" {
		fmt.Fprintf(&b, " (%s)", f.Task)
	}
	b.WriteString(": ")
	switch v := f.Validation; {
	case v != nil:
		b.WriteString(oneLine(v.Description))
		if len(v.Expected) > 0 && string(v.Expected) != "null" {
			fmt.Fprintf(&b, "; expected %s, got %s", clip(v.Expected), clip(v.Actual))
		}
		if f.Error != "" {
			fmt.Fprintf(&b, " [%s]", oneLine(f.Error))
		}
	case f.Error != "":
		b.WriteString(oneLine(f.Error))
	default:
		b.WriteString(oneLine(f.StepTitle))
	}
	return b.String()
}

// clip shortens a JSON value for a report line.
func clip(v json.RawMessage) string {
	if len(v) == 0 {
		return "nothing"
	}
	var b bytes.Buffer
	if json.Compact(&b, v) == nil {
		v = b.Bytes()
	}
	return oneLine(string(v))
}

// oneLine folds whitespace and cuts s at 300 bytes, on a rune boundary.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= 300 {
		return s
	}
	cut := 300
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
