package generator

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/internal/apidiff"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// diffTree opens a published version: a bundle for 3.0.x, a schema tree
// for the others.
func diffTree(t *testing.T, version string) *spec.Tree {
	t.Helper()
	skipCorpusInShort(t)
	dir := testspec.Dir(t)
	p := filepath.Join(dir, "schemas", version)
	if strings.HasPrefix(version, "3.0.") {
		p = filepath.Join(dir, "protocol", version+".tgz")
	}
	tree, err := spec.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// diffFact is a change the published trees show when read by hand.
type diffFact struct {
	kind     DiffKind
	breaking bool
	typ      string
	member   string
	from, to string
}

func (f diffFact) in(changes []DiffChange) bool {
	return slices.ContainsFunc(changes, func(c DiffChange) bool {
		return c.Kind == f.kind && c.Breaking == f.breaking && c.Type == f.typ && c.Member == f.member &&
			(f.from == "" || c.From == f.from) && (f.to == "" || c.To == f.to)
	})
}

// diffMembers lists the Member of every change of one kind, sorted.
func diffMembers(r *DiffReport, kind DiffKind) []string {
	var out []string
	for _, c := range r.Changes {
		if c.Kind == kind {
			out = append(out, c.Member)
		}
	}
	slices.Sort(out)
	return out
}

// The facts below were read from the trees: manifests (tools, error_codes),
// the error-details folders, and the schema files named in each comment.
func TestDiffPublishedVersions(t *testing.T) {
	cases := []struct {
		from, to string
		facts    []diffFact
		// exact lists of members per kind, checked in full.
		exact map[DiffKind][]string
		// kinds that must not occur.
		none []DiffKind
		// renames are every type rename, "From -> To": none, since every
		// schema found on both sides (in place, or moved: its digest) keeps
		// its name.
		renames []string
	}{
		{
			// pricing-options/cpv-option.json: view_threshold moved under
			// parameters, and keeps its name (its digest follows it).
			from: "2.5.3", to: "3.0.0",
		},
		{
			from: "3.0.0", to: "3.0.26",
			// core/format.json: every asset arm gained a title ("Individual
			// Image Asset"), which names them afresh, not in place.
			facts: []diffFact{
				// tmp/identity-match-response.json: ttl_sec replaced by a required serve_window_sec.
				{kind: "field-removed", breaking: true, typ: "IdentityMatchResponse", member: "ttl_sec", from: "int64"},
				{kind: "field-added", breaking: true, typ: "IdentityMatchResponse", member: "serve_window_sec", to: "int64"},
				// core/error.json gains an optional issues array.
				{kind: "field-added", typ: "Error", member: "issues", to: "[]ErrorIssue"},
				// core/assets/video-asset.json: the inline frame_rate_type enum becomes enums/frame-rate-type.json.
				{kind: "field-type-changed", breaking: true, typ: "VideoAsset", member: "frame_rate_type",
					from: "*VideoAssetFrameRateType", to: "*FrameRateType"},
				{kind: "type-removed", breaking: true, typ: "VideoAssetFrameRateType"},
				{kind: "type-added", typ: "FrameRateType"},
				// tmp/error.json: the code enum gains seller_not_authorized.
				{kind: "enum-value-added", typ: "TmpErrorCode", member: `"seller_not_authorized"`},
			},
			// enums/error-code.json lists the same 45 codes in both; no error-details file was added.
			none: []DiffKind{"code-added", "code-removed", "details-added", "details-removed"},
		},
		{
			from: "3.0.26", to: "3.1.19",
			facts: []diffFact{
				{kind: "code-added", typ: "", member: "AUTH_MISSING", to: "correctable"},
				{kind: "code-added", typ: "", member: "AUTH_INVALID", to: "terminal"},
				{kind: "code-deprecated", member: "AUTH_REQUIRED"},
				{kind: "enum-value-added", typ: "ErrorCode", member: `"AUTH_MISSING"`},
				// governance/check-governance-response.json: status renamed verdict (required).
				{kind: "field-removed", breaking: true, typ: "CheckGovernanceResponse", member: "status"},
				{kind: "field-added", breaking: true, typ: "CheckGovernanceResponse", member: "verdict", to: "GovernanceDecision"},
				// enums/available-metric.json drops video_completions.
				{kind: "enum-value-removed", breaking: true, typ: "AvailableMetric", member: `"video_completions"`},
				// manifest: get_signals gains async response schemas.
				{kind: "tool-async-added", member: "get_signals", to: "GetSignalsSubmitted"},
				// media-buy/get-media-buy-delivery-response.json: the
				// by_placement rows, in the by_package rows' second allOf
				// member, gain publisher_domain and keep their name
				// (TestDiffAllOfMemberPlace).
				{kind: "field-added", typ: "GetMediaBuyDeliveryResponseByPlacementItem", member: "publisher_domain", to: "*string"},
				// The by_geo rows beside them are a genuine change, not a
				// move: the inline allOf becomes a $ref to the new
				// core/geo-delivery-metrics.json, which adds country and
				// the geo_level conditionals, so neither its place nor its
				// digest is the old type's.
				{kind: "type-removed", breaking: true, typ: "GetMediaBuyDeliveryResponseByPackageItemByGeoItem"},
				{kind: "type-added", typ: "GeoDeliveryMetrics"},
				{kind: "field-type-changed", breaking: true, typ: "GetMediaBuyDeliveryResponseByPackageItem", member: "by_geo",
					from: "[]GetMediaBuyDeliveryResponseByPackageItemByGeoItem", to: "[]GeoDeliveryMetrics"},
			},
			exact: map[DiffKind][]string{
				"tool-added": {"get_task_status", "list_tasks", "list_transformers", "search_brands", "validate_input",
					"verify_brand_claim", "verify_brand_claims"},
				// error-details/: seven files added (agent-permission-denied.json is PERMISSION_DENIED's).
				"details-added": {"ACTION_NOT_ALLOWED", "AUTHORIZATION_REQUIRED", "BILLING_NOT_PERMITTED_FOR_AGENT",
					"BILLING_NOT_SUPPORTED", "PERMISSION_DENIED", "STALE_RESPONSE", "VERSION_UNSUPPORTED"},
			},
			none: []DiffKind{"code-removed", "code-recovery-changed", "tool-removed"},
		},
		{
			from: "3.1.19", to: "3.2.0-beta.3",
			facts: []diffFact{
				{kind: "tool-removed", breaking: true, member: "creative_approval"},
				{kind: "code-added", member: "ACCOUNT_MOVED", to: "correctable"},
				{kind: "code-added", member: "SIGNED_RESPONSE_ENVELOPE_EXPIRED", to: "transient"},
				// trusted-match/context-match-response.json drops cache_ttl.
				{kind: "field-removed", breaking: true, typ: "ContextMatchResponse", member: "cache_ttl", from: "*int64"},
				// enums/available-metric.json gains commissionable_value.
				{kind: "enum-value-added", typ: "AvailableMetric", member: `"commissionable_value"`},
				// error-details/accessibility-violation.json is CREATIVE_REJECTED's second shape.
				{kind: "alternate-details-added", member: "CREATIVE_REJECTED", to: "AccessibilityViolationDetails"},
				// The by_package rows' delivery_status, an inline enum in an
				// allOf member of get-media-buy-delivery-response.json and of
				// media-buy-delivery-webhook-result.json, becomes a $ref to
				// the shared enums/delivery-status.json, which adds
				// not_delivering: two types become one, a genuine change.
				{kind: "type-removed", breaking: true, typ: "GetMediaBuyDeliveryResponseDeliveryStatus"},
				{kind: "type-removed", breaking: true, typ: "MediaBuyDeliveryWebhookResultDeliveryStatus"},
				{kind: "field-type-changed", breaking: true, typ: "GetMediaBuyDeliveryResponseByPackageItem", member: "delivery_status",
					from: "*GetMediaBuyDeliveryResponseDeliveryStatus"},
			},
			exact: map[DiffKind][]string{
				"tool-added": {"accept_proposal", "buy_products", "control_media_buy", "decline_proposals", "list_products",
					"refine_proposals", "report_plan_adjustment", "request_proposals", "sync_agent_notification_configs"},
				"tool-deprecated": {"create_media_buy", "get_products", "list_creative_formats", "update_media_buy"},
				// error-details/: account-moved.json and unsupported-refinement-dimension.json added.
				"details-added": {"ACCOUNT_MOVED", "UNSUPPORTED_FEATURE"},
			},
			none: []DiffKind{"code-removed", "details-removed"},
			// core/postal-area.json: the legacy arm is retitled
			// PostalAreaWithFusedSystem, and keeps its name in place.
		},
		{
			from: "3.2.0-beta.3", to: "3.2.0-beta.5",
			// media-buy/request-proposals-response.json inserts an arm: the
			// arms after it moved and kept their names.
			facts: []diffFact{{kind: "arm-added", typ: "RequestProposalsResponse", member: "ProductsAvailable"}},
			none:  []DiffKind{"arm-renamed", "arm-removed", "type-removed"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.from+"→"+tc.to, func(t *testing.T) {
			t.Parallel()
			r, err := Diff(diffTree(t, tc.from), diffTree(t, tc.to), DiffOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.facts {
				if !f.in(r.Changes) {
					t.Errorf("missing %+v", f)
				}
			}
			for kind, want := range tc.exact {
				if got := diffMembers(r, kind); !slices.Equal(got, want) {
					t.Errorf("%s:\n got %q\nwant %q", kind, got, want)
				}
			}
			for _, kind := range tc.none {
				if got := diffMembers(r, kind); len(got) > 0 {
					t.Errorf("unexpected %s: %q", kind, got)
				}
			}
			var renames []string
			for _, c := range r.Changes {
				if c.Kind == "type-renamed" {
					renames = append(renames, c.From+" -> "+c.To)
				}
			}
			if !slices.Equal(renames, tc.renames) {
				t.Errorf("renames:\n got %q\nwant %q", renames, tc.renames)
			}
			if !r.HasBreaking() {
				t.Error("no breaking change reported")
			}
			if r.From.Version != tc.from || r.To.Version != tc.to {
				t.Errorf("sides: %+v → %+v", r.From, r.To)
			}
			var summary []string
			for _, n := range r.Categories {
				summary = append(summary, fmt.Sprintf("%s %d/%d", n.Category, n.Breaking, n.Compatible))
			}
			t.Logf("%s → %s: %d breaking, %d compatible (%s)", tc.from, tc.to, r.Breaking, r.Compatible, strings.Join(summary, ", "))
		})
	}
}

func diffWriteFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiffSameVersionIsEmpty(t *testing.T) {
	tree := diffTree(t, "3.0.26")
	r, err := Diff(tree, tree, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changes) != 0 || r.HasBreaking() {
		t.Errorf("a version compared with itself: %d changes, first %+v", len(r.Changes), r.Changes[0])
	}
}

func TestDiffInclude(t *testing.T) {
	r, err := Diff(diffTree(t, "3.0.26"), diffTree(t, "3.1.19"),
		DiffOptions{Include: []string{"governance/check-governance-response.json"}, FromSource: "a", ToSource: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if !(diffFact{kind: "field-removed", breaking: true, typ: "CheckGovernanceResponse", member: "status"}).in(r.Changes) {
		t.Error("the included schema's change is missing")
	}
	if (diffFact{kind: "field-removed", typ: "ContextMatchResponse", member: "cache_ttl", breaking: true}).in(r.Changes) {
		t.Error("a schema outside --include was compared")
	}
	if r.From.Types >= 1000 || r.From.Source != "a" || r.To.Source != "b" {
		t.Errorf("sides: %+v → %+v", r.From, r.To)
	}
}

func TestDiffJSONStable(t *testing.T) {
	from, to := diffTree(t, "3.0.26"), diffTree(t, "3.1.19")
	var runs [2][]byte
	for i := range runs {
		r, err := Diff(from, to, DiffOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		runs[i] = b.Bytes()
	}
	if !bytes.Equal(runs[0], runs[1]) {
		t.Fatal("two diffs of the same versions gave different JSON")
	}
}

func TestDiffErrors(t *testing.T) {
	if _, err := Diff(nil, nil, DiffOptions{}); err == nil {
		t.Error("Diff(nil, nil) did not fail")
	}
	broken := t.TempDir()
	diffWriteFile(t, filepath.Join(broken, "core", "bad.json"), `{"type": "object", "properties": {`)
	tree, err := spec.Open(broken)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Diff(tree, tree, DiffOptions{})
	if err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("a broken schema: err = %v, want one naming bad.json", err)
	}
}

// Over every published pair, named both ways (regenerated over the first
// version's package, and fresh): a rename never names a type that still
// exists, or one that existed; an arm renamed with its type is said once,
// in the type's rename; no change is reported twice.
func TestDiffRenamesAreReal(t *testing.T) {
	testspec.Dir(t)
	for i := 1; i < len(testspec.Versions); i++ {
		from, to := testspec.Versions[i-1], testspec.Versions[i]
		for _, fresh := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s→%s fresh=%v", from.Version, to.Version, fresh), func(t *testing.T) {
				oldTree, newTree := openCorpus(t, from.Source), openCorpus(t, to.Source)
				old, _, err := build(oldTree, nil, naming.Keep{})
				if err != nil {
					t.Fatal(err)
				}
				keep := previousOfPackage(old).keep()
				if fresh {
					keep = naming.Keep{}
				}
				cur, _, err := build(newTree, nil, keep)
				if err != nil {
					t.Fatal(err)
				}
				r := apidiff.Compare(old, cur, apidiff.Side{}, apidiff.Side{})
				oldNames, newNames := map[string]bool{}, map[string]bool{}
				for _, ty := range old.Types {
					oldNames[ty.Name] = true
				}
				for _, ty := range cur.Types {
					newNames[ty.Name] = true
				}
				seen := map[string]bool{}
				renamedTo := map[string]bool{}
				renames := 0
				for _, c := range r.Changes {
					key := fmt.Sprintf("%s %s %s %s %s", c.Kind, c.Type, c.Member, c.GoName, c.From)
					if seen[key] {
						t.Errorf("reported twice: %s", key)
					}
					seen[key] = true
					if c.Kind == apidiff.TypeRenamed {
						renames++
						renamedTo[c.To] = true
						if newNames[c.From] || oldNames[c.To] {
							t.Errorf("%s -> %s: a rename of a type that still exists (or into one that existed)", c.From, c.To)
						}
					}
				}
				for _, c := range r.Changes {
					if c.Kind == apidiff.ArmRenamed && renamedTo[c.Type+c.To] {
						t.Errorf("arm %s of %s renamed beside its type's rename", c.To, c.Type)
					}
				}
				t.Logf("%d type renames, %d breaking, %d compatible", renames, r.Breaking, r.Compatible)
			})
		}
	}
}

// Trees with one union whose arms are told apart by kind, as a version
// inserts, removes and reorders them.
func assetTree(t *testing.T, version string, kinds ...string) *spec.Tree {
	t.Helper()
	var arms []string
	for _, k := range kinds {
		arms = append(arms, fmt.Sprintf(`{"title": "%s Asset", "type": "object", "properties": {"kind": {"const": %q}, "url": {"type": "string"}}, "required": ["kind", "url"]}`,
			strings.ToUpper(k[:1])+k[1:], k))
	}
	return upgradeTree(t, map[string]string{
		"core/asset.json": `{"$id": "/schemas/` + version + `/core/asset.json", "title": "Asset", "oneOf": [` + strings.Join(arms, ",") + `]}`,
	})
}

// On fixtures: an arm inserted, removed or moved is reported as what it is,
// compatible unless it removes something, and no arm after it is renamed;
// regenerated over the earlier package, every arm keeps its name.
func TestDiffArmFixtures(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new []string
		want     []string // kind member, sorted
		breaking bool
	}{
		{"inserted", []string{"image", "url", "webhook"}, []string{"image", "daast", "url", "webhook"},
			[]string{"arm-added DAASTAsset", "type-added DAASTAsset"}, false},
		{"removed", []string{"image", "daast", "url"}, []string{"image", "url"},
			[]string{"arm-removed DAASTAsset", "type-removed DAASTAsset"}, true},
		{"reordered", []string{"image", "url", "webhook"}, []string{"webhook", "image", "url"},
			[]string{"arms-reordered "}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oldTree, newTree := assetTree(t, "1.0.0", tc.old...), assetTree(t, "2.0.0", tc.new...)
			r, err := Diff(oldTree, newTree, DiffOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range r.Changes {
				member := c.Member
				if c.Category == apidiff.CatTypes {
					member = c.Type
				}
				got = append(got, string(c.Kind)+" "+member)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) || r.HasBreaking() != tc.breaking {
				t.Errorf("changes %q (breaking %v), want %q (breaking %v)", got, r.HasBreaking(), tc.want, tc.breaking)
			}
			// The same upgrade, regenerated over the first package.
			before := declared(generateTree(t, oldTree, nil).Files)
			v1 := generateTree(t, oldTree, nil)
			after := declared(generateTree(t, newTree, PreviousOf(v1.Files)).Files)
			byName := map[string]bool{}
			for _, n := range after {
				byName[n] = true
			}
			for key, name := range before {
				if !byName[name] && !slices.Contains(tc.new, strings.ToLower(strings.TrimSuffix(name, "Asset"))) {
					continue // an arm the new version removed
				}
				if !byName[name] {
					t.Errorf("%s (%s) lost its name", name, key)
				}
			}
		})
	}
}

// Trees with a struct whose allOf members merge, the second declaring an
// array of inline objects (get-media-buy-delivery-response.json's
// by_package rows and their by_placement items, from 3.0.26 to 3.1.19).
// Version 2 inserts a member before it, edits the items' schema (a
// property added) and adds a root schema the policy would give the items'
// name to.
func deliveryTrees(t *testing.T) (v1, v2 *spec.Tree) {
	t.Helper()
	doc := func(version string, members ...string) string {
		return `{"$id": "/schemas/` + version + `/core/delivery.json", "title": "Delivery", "type": "object", "allOf": [` +
			strings.Join(members, ",") + `]}`
	}
	base := `{"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}`
	rows := func(props string) string {
		return `{"type": "object", "properties": {"by_placement": {"type": "array", "items": {"type": "object", "properties": {` +
			props + `}, "required": ["placement_id"]}}}}`
	}
	v1 = upgradeTree(t, map[string]string{
		"core/delivery.json": doc("1.0.0", base, rows(`"placement_id": {"type": "string"}`)),
	})
	v2 = upgradeTree(t, map[string]string{
		"core/delivery.json": doc("2.0.0", base, `{"type": "object", "properties": {"currency": {"type": "string"}}}`,
			rows(`"placement_id": {"type": "string"}, "placement_name": {"type": "string"}`)),
		"core/delivery-by-placement-item.json": `{"$id": "/schemas/2.0.0/core/delivery-by-placement-item.json",
			"title": "Delivery By Placement Item", "type": "object", "properties": {"slot": {"type": "string"}}}`,
	})
	return v1, v2
}

// A type whose place lies in an allOf member is known by that place without
// the member's index (the members are one struct): edited and shifted to
// another index, it keeps its name when regenerated over the earlier
// package, though the policy alone now gives the name to a new schema, and
// the diff reports it kept (its new field an addition), not removed and
// added.
func TestDiffAllOfMemberPlace(t *testing.T) {
	v1, v2 := deliveryTrees(t)
	const oldKey, newKey = "core/delivery.json#/allOf/1/properties/by_placement/items", "core/delivery.json#/allOf/2/properties/by_placement/items"
	name := declared(generateTree(t, v1, nil).Files)[oldKey]
	if name == "" {
		t.Fatalf("v1 declares no type at %s", oldKey)
	}
	if fresh := declared(generateTree(t, v2, nil).Files); fresh[newKey] == name {
		t.Fatalf("the policy alone names the v2 items %s too: the fixture tests nothing", name)
	}
	kept := declared(generateTree(t, v2, PreviousOf(generateTree(t, v1, nil).Files)).Files)
	if kept[newKey] != name {
		t.Errorf("regenerated over v1, the items are %q, want %q", kept[newKey], name)
	}
	r, err := Diff(v1, v2, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	placementName := false
	for _, c := range r.Changes {
		if c.Category == apidiff.CatTypes {
			types = append(types, string(c.Kind)+" "+c.Type)
		}
		placementName = placementName || c.Kind == "field-added" && c.Type == name && c.Member == "placement_name"
	}
	if want := []string{"type-added " + kept["core/delivery-by-placement-item.json#"]}; !slices.Equal(types, want) || !placementName {
		t.Errorf("type changes %q, want %q; %s.placement_name added: %v", types, want, name, placementName)
	}
}
