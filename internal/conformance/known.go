package main

import (
	"slices"
	"strings"
)

// knownFailure is a step that fails for a reason outside the seller under
// test: a defect of the runner or the storyboards, filed upstream, which
// no agent can pass in that runner, or a caveat of the kit itself. Each is
// printed, with its reason, on every run that meets it and not counted as
// failed; an entry no run of its kind meets any more is reported as stale.
type knownFailure struct {
	// kind is the kind of run it applies to (kindFull, kindNamed,
	// kindGovernance, or "" for any).
	kind string
	// bundles are the bundles it applies to (none: every one); protocol
	// the transport ("" for both).
	bundles  []string
	protocol string
	// storyboard and step identify the step; step "*" is every step of
	// the storyboard, storyboard "*" every storyboard.
	storyboard, step string
	// errorHas, when set, must be in the failure's error, or its
	// validation's description or actual value.
	errorHas string
	// issue is the upstream report ("adcontextprotocol/adcp-client#2993");
	// kitCaveat marks a failure the kit causes (its README's caveats).
	issue     string
	kitCaveat bool
	// offline marks a step that needs the public internet, which a CI
	// machine (loopback only) does not have: no agent passes it there.
	offline bool
	why     string
	// open marks an entry of openFailures: examples/seller's own gap,
	// tracked in issue, not an upstream defect.
	open bool
}

// applies reports whether the entry covers runs of kind over protocol on
// bundle.
func (k knownFailure) applies(kind, bundle, protocol string) bool {
	return (k.kind == "" || k.kind == kind) && (len(k.bundles) == 0 || slices.Contains(k.bundles, bundle)) &&
		(k.protocol == "" || k.protocol == protocol)
}

// The reasons shared by entries.
const (
	whyDigestPosture = "007 and 018 assert opposite covers_content_digest postures against one URL and the storyboard's " +
		"vector dispatch never forwards the agent's (it declares \"either\"), so one of them fails on any agent; " +
		"the request-signing grader runs grade both"
	whyProtocolMethod = "028 (3.1 and later) wants an unsigned tasks/cancel refused as a protocol method the verifier " +
		"requires signed, and the dispatch grades it whatever the agent's protocol_methods_required_for says (the defect " +
		"of 007 and 018: no capability forwarded); the grader skips it for a seller requiring no protocol method signed"
	whyLibraryVector = "025 ships its own JWK and is graded in the runner's own library, never reaching the agent, " +
		"which reports HTTP 0 to a step expecting 401; the request-signing grader passes it"
	whyA2ASigning = "the request-signing probe has no A2A transport: on an A2A run it sends an MCP initialize to the A2A " +
		"endpoint, which answers in A2A, and every vector throws before it is graded; the MCP runs and the grader grade them"
	whyA2AAuthProbe = "steps that override authentication are sent as raw MCP tools/call requests even on an A2A run, " +
		"so the A2A endpoint answers JSON-RPC \"method not found\" where the step wants the tool's answer; the MCP run " +
		"grades them"
	whyControllerSchema = "the runner validates against the bundle's schemas, and the schemas it ships have no " +
		"compliance/comply-test-controller-response.json, so every comply_test_controller response_schema check fails " +
		"\"no_schema_registered\" whatever the agent answers (comply_controller_mode_gate's FORBIDDEN, success false, " +
		"context echoed, is checked by examples/seller's tests; dependency_impairment's force_creative_status succeeds); " +
		"a storyboard whose first step is a controller call then skips the rest as prerequisite_failed (get_products_async: " +
		"with the schema supplied to the runner, its steps pass on 3.1.18 and 3.2.0-beta.5, MCP and A2A)"
	whyTopLevelCreativeIDs = "native_localization's list steps send creative_ids at the request's top level, which 3.2.0-beta.5's " +
		"list-creatives-request.json does not define (it filters by filters.creative_ids; additionalProperties lets the " +
		"member through, meaning nothing), so an agent answering by the schema lists the whole library, newest first by " +
		"the schema's default sort, and creatives[0] is the French creative synced after the localized one; " +
		"examples/seller's TestCanonical32 reads the localized creative back through filters.creative_ids"
	whyDirectSelector = "the runner's canonical_format_satisfaction requires a direct selector to repeat every param of " +
		"the product's declaration it does not handle itself (all but dimensions and durations), and the seeded " +
		"canonical_formats_mrec_display fixes max_file_size_kb, image_formats, slots and more while the step's selector " +
		"names width and height only, so the runner's own verdict on the storyboard's request is \"under-specified\" " +
		"for any agent that echoes the fixture (the agent accepts the buy, as expected); the steps after it are skipped " +
		"as prerequisite_failed, and 3.1.18's run, which has no such step, grades the bare-selector rejection"
	whyEvaluatorOutput = "evaluator_auth's first step (get_capabilities, not gated) reads governance.creative_features[0]" +
		".feature_id into its context, and the runner fails a step whose context output does not resolve (no optional " +
		"outputs: extractContextOutputs in dist/lib/testing/storyboard/context.js); every phase that uses it is gated on " +
		"creative.supports_evaluator (adcp#5847), so a creative agent declaring supports_evaluator false that evaluates no " +
		"creative features (examples/seller: get_creative_features answers none) fails it unless it advertises features it " +
		"does not evaluate"
	whyTruthOfClaim = "the seller must ask the product's accepted verifier, https://governance.encypher.seller.example " +
		"(an RFC 2606 .example name, which never resolves), for its ai_generated verdict on the asset before it can refute " +
		"the buyer's digital_capture claim; no verifier answers there, and the reference training agent lists the storyboard " +
		"among its known failures for that reason (adcp#3802)"
	whyHostedTag = "the creative's tag is served from https://adcontextprotocol.org/test-assets/, and its violations " +
		"(a location.assign redirect, a fetch over http://) are in the tag's body: a seller must fetch it to judge it, and " +
		"a machine without the public internet leaves the creative unjudged (pending_review, no CREATIVE_REJECTED); " +
		"examples/seller's scanner (tagscan.go) finds both in TestHostedTagPolicies' tags served on loopback TLS"
	whySyncSilence = "webhook_emission's first trigger is a create_media_buy, which a seller that books synchronously answers " +
		"completed, and its expect_webhook then waits for a webhook: webhooks.mdx says a seller MUST NOT post a task " +
		"webhook for an inline terminal response (the storyboard's own rule 5), so only a seller that breaks that rule " +
		"(as @adcp/sdk did by default before adcp-client#2477) or books every webhook-registered buy asynchronously passes; " +
		"adcp#5389 left the create_media_buy branch on expect_webhook until the runner has expect_no_webhook " +
		"(adcp-client#2525), and the step is stateful, so the runner skips the stateful steps after it"
	whySyncSilenceCascade = "follows from webhook_emission's expect_webhook_presence (its entry): the runner skips the stateful " +
		"expect_sync_get_products_silence after that failure, so the synchronous branch records no contribution and the " +
		"rejection branch, which a seller answering synchronously does not take, is graded alone"
	whyDeniedRouted = "the buy names no plan_id, which check_governance needs: the seller consults the governance " +
		"agent for buys that name their plan (examples/seller's TestGovernance denies one for real)"
	whyDenied = "no governance agent in a full assessment: the runner sends sync_plans to the seller and has no " +
		"$context.governance_agent_url, and the buy names no plan_id, which check_governance needs; nothing can deny it"
)

// knownFailures are, per runner version, the steps examples/seller cannot
// pass in that runner, and why. The first entry a failure matches is the
// one it is counted under. A runner version with no list has none known.
var knownFailures = map[string][]knownFailure{
	"14.0.0-beta.7": {
		{protocol: "a2a", storyboard: "signed_requests", step: "*", errorHas: "MCP initialize precondition failed",
			issue: "adcontextprotocol/adcp-client#2954", why: whyA2ASigning},
		{storyboard: "signed_requests", step: "negative-007-missing-content-digest",
			issue: "adcontextprotocol/adcp-client#2993", why: whyDigestPosture},
		{storyboard: "signed_requests", step: "negative-018-digest-covered-when-forbidden",
			issue: "adcontextprotocol/adcp-client#2993", why: whyDigestPosture},
		{storyboard: "signed_requests", step: "negative-028-unsigned-protocol-method-required",
			issue: "adcontextprotocol/adcp-client#2993", why: whyProtocolMethod},
		{storyboard: "signed_requests", step: "negative-025-jwk-alg-crv-mismatch",
			issue: "adcontextprotocol/adcp-client#2955", why: whyLibraryVector},
		{protocol: "a2a", storyboard: "comply_controller_mode_gate", step: "deny_live_caller",
			issue: "adcontextprotocol/adcp-client#2878", why: whyA2AAuthProbe},
		{protocol: "a2a", storyboard: "media_buy_seller/canonical_formats", step: "get_seeded_divergent_product",
			issue: "adcontextprotocol/adcp-client#2878", why: whyA2AAuthProbe},
		{bundles: []string{"3.2.0-beta.5"}, storyboard: "media_buy_seller/canonical_formats", step: "create_media_buy_with_direct_canonical_selector",
			errorHas: "Under-specified selector", issue: "adcontextprotocol/adcp-client (not filed yet: canonical_format_satisfaction param containment)",
			why: whyDirectSelector},
		{storyboard: "*", step: "*", errorHas: "no_schema_registered",
			issue: "adcontextprotocol/adcp-client#2867", why: whyControllerSchema},
		{storyboard: "creative/evaluator_auth", step: "get_capabilities", errorHas: "governance.creative_features[0].feature_id",
			issue: "adcontextprotocol/adcp (not filed yet: follow-up of adcp#5847)", why: whyEvaluatorOutput},
		{bundles: []string{"3.2.0-beta.5"}, storyboard: "creative/native_localization", step: "list_localized_image",
			errorHas: "The synced creative is returned", issue: "adcontextprotocol/adcp (not filed yet: native_localization list_creatives creative_ids)",
			why: whyTopLevelCreativeIDs},
		{storyboard: "media_buy_seller/provenance_truth_of_claim", step: "sync_creatives_contradicted",
			issue: "adcontextprotocol/adcp#3802", why: whyTruthOfClaim},
		{bundles: []string{"3.2.0-beta.5"}, storyboard: "creative/policy_backed_rejections", step: "sync_dual_violation_creative",
			offline: true, why: whyHostedTag},
		{kind: kindGovernance, storyboard: "media_buy_seller/governance_denied", step: "create_media_buy_denied",
			issue: "adcontextprotocol/adcp#7547", why: whyDeniedRouted},
		{kind: kindGovernance, storyboard: "media_buy_seller/governance_denied_recovery", step: "create_media_buy_denied",
			issue: "adcontextprotocol/adcp#7547", why: whyDeniedRouted},
		{storyboard: "webhook_emission", step: "expect_webhook_presence", errorHas: "no_webhook_received",
			issue: "adcontextprotocol/adcp#5389", why: whySyncSilence},
		{bundles: []string{"3.2.0-beta.5"}, storyboard: "webhook_emission", step: "sync_get_products_with_webhook_config_reject",
			issue: "adcontextprotocol/adcp#5389", why: whySyncSilenceCascade},
		{bundles: []string{"3.2.0-beta.5"}, storyboard: "webhook_emission", step: "assert_synchronous_completion_handled",
			issue: "adcontextprotocol/adcp#5389", why: whySyncSilenceCascade},
		{storyboard: "media_buy_seller/governance_denied", step: "create_media_buy_denied",
			issue: "adcontextprotocol/adcp#7547", why: whyDenied},
		{storyboard: "media_buy_seller/governance_denied_recovery", step: "create_media_buy_denied",
			issue: "adcontextprotocol/adcp#7547", why: whyDenied},
	},
}

// knownIn returns the first entry of list a failed step of a run of kind
// over protocol on bundle matches.
func knownIn(list []knownFailure, kind, bundle, protocol string, f failure) (knownFailure, bool) {
	if i := knownIndex(list, kind, bundle, protocol, f); i >= 0 {
		return list[i], true
	}
	return knownFailure{}, false
}

// knownIndex is the index in list of the entry knownIn returns, -1 for
// none.
func knownIndex(list []knownFailure, kind, bundle, protocol string, f failure) int {
	for i, k := range list {
		if k.applies(kind, bundle, protocol) && (k.storyboard == "*" || k.storyboard == f.StoryboardID) && (k.step == "*" || k.step == f.StepID) &&
			(k.errorHas == "" || f.has(k.errorHas)) {
			return i
		}
	}
	return -1
}

// has reports whether s is in the failure's error, its validation's
// description or its actual value.
func (f failure) has(s string) bool {
	v := f.Validation
	return strings.Contains(f.Error, s) || v != nil && (strings.Contains(v.Description, s) || strings.Contains(string(v.Actual), s))
}

// source says where the entry comes from: the upstream issue, or the kit.
func (k knownFailure) source() string {
	switch {
	case k.open:
		return "open in " + k.issue + ": examples/seller's own, not an upstream defect"
	case k.kitCaveat:
		return "the kit's own caveat (../shared/conformance/README.md)"
	case k.offline:
		return "offline: the step needs the public internet, which this machine does not reach"
	case k.issue != "":
		return k.issue
	}
	return "no upstream issue"
}
