package main

import "strings"

// knownFailure is a step that fails for a reason outside the seller under
// test, named so that it does not fail the run: each is printed, with its
// reason, on every run that meets it, and an entry no run meets any more
// is reported as stale.
type knownFailure struct {
	// kind is the run it applies to (kindFull, kindNamed, kindGovernance,
	// or "" for any).
	kind string
	// storyboard and step identify the step; step "*" is every step of
	// the storyboard.
	storyboard, step string
	// errorHas, when set, must be in the failure's error too.
	errorHas string
	why      string
}

// The reasons shared by entries.
const (
	whyDeniedFull = "no governance agent in a full assessment: the runner sends sync_plans to the seller and has no " +
		"$context.governance_agent_url, and the buy names no plan_id (adcontextprotocol/adcp#7547); nothing can deny it"
	whyDeniedRouted = "the buy names no plan_id, which check_governance needs (adcontextprotocol/adcp#7547): " +
		"the seller consults the agent for buys that name their plan"
	whyUngradable = "6.11's storyboard mode cannot grade it on any agent, and the CLI cannot skip it " +
		"(adcontextprotocol/adcp-client#2993: 007 and 018 assert opposite covers_content_digest postures on one URL; " +
		"#2955: 025 is graded in the SDK's library, HTTP 0 to a step expecting 401); the named signed_requests run " +
		"skips it and the request-signing grader passes it"
)

// knownFailures are the steps of @adcp/sdk 6.11's storyboards that
// examples/seller cannot pass today, and why. The first entry a failure
// matches is the one it is counted under.
var knownFailures = []knownFailure{
	{kindFull, "signed_requests", "negative-007-missing-content-digest", "", whyUngradable},
	{kindFull, "signed_requests", "negative-018-digest-covered-when-forbidden", "", whyUngradable},
	{kindFull, "signed_requests", "negative-025-jwk-alg-crv-mismatch", "", whyUngradable},
	{kindFull, "media_buy_seller/governance_denied", "create_media_buy_denied", "", whyDeniedFull},
	{kindFull, "media_buy_seller/governance_denied_recovery", "create_media_buy_denied", "", whyDeniedFull},
	{kindGovernance, "media_buy_seller/governance_denied", "create_media_buy_denied", "", whyDeniedRouted},
	{kindGovernance, "media_buy_seller/governance_denied_recovery", "create_media_buy_denied", "", whyDeniedRouted},
}

// known returns the entry a failed step of a run of kind matches.
func known(kind string, f failure) (knownFailure, bool) { return knownIn(knownFailures, kind, f) }

// knownIn returns the first entry of list a failed step of a run of kind
// matches.
func knownIn(list []knownFailure, kind string, f failure) (knownFailure, bool) {
	for _, k := range list {
		if (k.kind == "" || k.kind == kind) && k.storyboard == f.StoryboardID && (k.step == "*" || k.step == f.StepID) &&
			(k.errorHas == "" || strings.Contains(f.Error, k.errorHas)) {
			return k, true
		}
	}
	return knownFailure{}, false
}
