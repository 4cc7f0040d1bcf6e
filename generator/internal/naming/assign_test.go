package naming

import (
	"testing"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/jsonsrc"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

const (
	rankRoot = iota
	rankDefinition
	rankInline
)

func loc(s string) schema.Loc {
	file, ptr, _ := cut(s)
	return schema.Loc{File: file, Pointer: ptr}
}

func cut(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func absolute(at string, rank int, hints ...string) *ir.Type {
	return &ir.Type{Kind: ir.KindStruct, Loc: loc(at), Rank: rank, Hints: hints}
}

func inline(at string, parent *ir.Type, suffix string) *ir.Type {
	return &ir.Type{Kind: ir.KindStruct, Loc: loc(at), Rank: rankInline, Parent: parent, Suffixes: []string{suffix}}
}

func value(t *testing.T, js string) schema.Value {
	t.Helper()
	n, err := jsonsrc.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return schema.Value{Node: n}
}

func names(types []*ir.Type) []string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = t.Name
	}
	return out
}

func TestCollisionRanks(t *testing.T) {
	cases := []struct {
		name  string
		types func() []*ir.Type
		want  []string
	}{
		{
			name: "a root beats a definition",
			types: func() []*ir.Type {
				return []*ir.Type{
					absolute("z/domain.json#/definitions/domain", rankDefinition, "Domain", "DomainDomain"),
					absolute("a/domain.json#", rankRoot, "Domain", "ADomain"),
				}
			},
			want: []string{"DomainDomain", "Domain"},
		},
		{
			name: "among equal ranks the first location keeps the name",
			types: func() []*ir.Type {
				return []*ir.Type{
					absolute("core/registry-event.json#/$defs/domain", rankDefinition, "Domain", "RegistryEventDomain"),
					absolute("brand.json#/definitions/domain", rankDefinition, "Domain", "BrandDomain"),
				}
			},
			want: []string{"RegistryEventDomain", "Domain"},
		},
		{
			name: "a reserved name is never taken",
			types: func() []*ir.Type {
				return []*ir.Type{absolute("decode.json#", rankRoot, "Decode", "CoreDecode")}
			},
			want: []string{"CoreDecode"},
		},
		{
			name: "out of candidates: the last one numbered in location order",
			types: func() []*ir.Type {
				return []*ir.Type{
					absolute("b.json#", rankRoot, "Thing"),
					absolute("a.json#", rankRoot, "Thing"),
					absolute("c.json#", rankRoot, "Thing"),
				}
			},
			want: []string{"Thing2", "Thing", "Thing3"},
		},
		{
			name: "an inline type losing its name to a definition is qualified by its description, not numbered",
			types: func() []*ir.Type {
				brand := absolute("brand.json#/definitions/brand", rankDefinition, "Brand")
				contact := absolute("brand.json#/definitions/contact", rankDefinition, "BrandContact")
				contact.Description = "Contact information"
				inner := inline("brand.json#/definitions/brand/properties/contact", brand, "Contact")
				inner.Description = "Brand-level contact information"
				return []*ir.Type{brand, contact, inner}
			},
			want: []string{"Brand", "BrandContact", "BrandLevelContact"},
		},
		{
			name: "an arm does not say the words its union opens with again",
			types: func() []*ir.Type {
				u := absolute("media-buy/create-media-buy-response.json#", rankRoot, "CreateMediaBuyResponse")
				arm := inline("media-buy/create-media-buy-response.json#/oneOf/2", u, "CreateMediaBuySubmitted")
				taken := absolute("media-buy/create-media-buy-async-response-submitted.json#", rankRoot, "CreateMediaBuySubmitted")
				return []*ir.Type{u, arm, taken}
			},
			want: []string{"CreateMediaBuyResponse", "CreateMediaBuyResponseSubmitted", "CreateMediaBuySubmitted"},
		},
		{
			name: "an inline title is preferred to parent + property",
			types: func() []*ir.Type {
				p := absolute("p.json#", rankRoot, "Plan")
				c := inline("p.json#/properties/budget", p, "Budget")
				c.Hints = []string{"Money"}
				return []*ir.Type{p, c}
			},
			want: []string{"Plan", "Money"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			types := tc.types()
			Assign(&ir.Package{Types: types}, Keep{})
			got := names(types)
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("names %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestInlineNames(t *testing.T) {
	root := absolute("get-caps-response.json#", rankRoot, "GetCapsResponse")
	mediaBuy := inline("get-caps-response.json#/properties/media_buy", root, "MediaBuy")
	execution := inline("get-caps-response.json#/properties/media_buy/properties/execution", mediaBuy, "Execution")
	targeting := inline("get-caps-response.json#/properties/media_buy/properties/execution/properties/targeting", execution, "Targeting")
	geo := inline("get-caps-response.json#/properties/media_buy/properties/execution/properties/targeting/properties/geo_regions_exclude", targeting, "GeoRegionsExclude")
	hashed := inline("get-caps-response.json#/properties/media_buy/properties/execution/properties/targeting/properties/supported_hashed_identifier_kinds", targeting, "SupportedHashedIdentifierKinds")
	audio := absolute("audio.json#", rankRoot, "AudioDaast")
	version := inline("audio.json#/properties/daast_version", audio, "DaastVersion")
	goal := absolute("goal.json#", rankRoot, "OptimizationGoal")
	metric := inline("goal.json#/oneOf/0", goal, "Metric")
	metricMetric := inline("goal.json#/oneOf/0/properties/metric", metric, "Metric")
	types := []*ir.Type{hashed, geo, targeting, execution, mediaBuy, root, audio, version, goal, metric, metricMetric}
	Assign(&ir.Package{Types: types}, Keep{})
	want := map[*ir.Type]string{
		mediaBuy:  "GetCapsResponseMediaBuy",
		execution: "GetCapsResponseMediaBuyExecution",
		// From ShortenAt characters, the segments between the anchor and
		// the parent go; from LongName, the parent's too.
		targeting: "GetCapsResponseExecutionTargeting",
		geo:       "GetCapsResponseTargetingGeoRegionsExclude",
		hashed:    "GetCapsResponseSupportedHashedIdentifierKinds",
		version:   "AudioDaastVersion", // the repeated word goes
		// A suffix that is all repetition takes a word for what the type
		// is: a member's Value (an array item's Item, a map value's Entry).
		metricMetric: "OptimizationGoalMetricValue",
	}
	for ty, name := range want {
		if ty.Name != name {
			t.Errorf("%s: got %s, want %s", ty.Loc, ty.Name, name)
		}
	}
}

func TestArmHomes(t *testing.T) {
	// A merged copy of goal.json's union lowered the arm first, from
	// budget.json: the arm is still named after goal.json's union.
	budget := absolute("budget.json#", rankRoot, "BudgetAllocation")
	copyUnion := inline("budget.json#/properties/goals/items", budget, "Goal")
	goal := absolute("goal.json#", rankRoot, "OptimizationGoal")
	arm := inline("goal.json#/oneOf/0", copyUnion, "Metric")
	for _, u := range []*ir.Type{copyUnion, goal} {
		u.Kind = ir.KindUnion
		u.Union = &ir.Union{Strategy: ir.ByTrial, Arms: []*ir.Arm{{Label: "Metric", Type: ir.NamedRef(arm)}}}
	}
	Assign(&ir.Package{Types: []*ir.Type{budget, copyUnion, arm, goal}}, Keep{})
	if arm.Name != "OptimizationGoalMetric" {
		t.Errorf("arm named %s, want OptimizationGoalMetric", arm.Name)
	}
}

func TestSaidFirstAndTaskStem(t *testing.T) {
	for _, c := range []struct{ parent, suffix, want string }{
		{"CreateMediaBuyResponse", "CreateMediaBuySubmitted", "Submitted"},
		{"WholesaleFeedEvent", "WholesaleFeedBulkChange", "BulkChange"},
		{"ProductFilters", "ProductIDs", ""},                 // one word only: the suffix says what it is
		{"GetMediaBuysResponse", "MediaBuy", ""},             // not the words it opens with
		{"CreateMediaBuyResponse", "CreateMediaBuy", ""},     // nothing would be left
		{"CreateMediaBuyResponse", "create_media_buy_x", ""}, // not a Go name
	} {
		if got := saidFirst(c.parent, c.suffix); got != c.want {
			t.Errorf("saidFirst(%q, %q) = %q, want %q", c.parent, c.suffix, got, c.want)
		}
	}
	for _, c := range []struct{ name, want string }{
		{"GetProductsResponse", "GetProducts"},
		{"GetAdCPCapabilitiesResponseSignalActivation", "GetAdCPCapabilitiesSignalActivation"},
		{"ResponseTime", ""},
		{"Product", ""},
	} {
		if got, _ := taskStem(c.name); got != c.want {
			t.Errorf("taskStem(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	for _, c := range []struct{ description, name, want string }{
		{"Brand-level contact information", "BrandContact", "Level"},
		{"The contact of the brand", "BrandContact", ""},
		{"A 2nd contact for billing", "BrandContact", "Billing"},
		{"", "BrandContact", ""},
	} {
		if got := describedBy(c.description, c.name); got != c.want {
			t.Errorf("describedBy(%q, %q) = %q, want %q", c.description, c.name, got, c.want)
		}
	}
}

func TestJoinName(t *testing.T) {
	cases := []struct{ name, suffix, want string }{
		{"AudioDaast", "DaastVersion", "AudioDaastVersion"},
		{"DaastTrackerAsset", "DaastEvent", "DaastTrackerAssetDaastEvent"},
		{"BrandKit", "KitOverride", "BrandKitOverride"},
		{"Media", "MediaBuy", "MediaBuy"},
		{"OptimizationGoalMetric", "Metric", "OptimizationGoalMetric" + "Metric"},
		{"Plan", "Budget", "PlanBudget"},
		{"Sizes", "16_9", "Sizes16_9"},
	}
	for _, c := range cases {
		if got := JoinName(c.name, c.suffix); got != c.want {
			t.Errorf("JoinName(%q, %q) = %q, want %q", c.name, c.suffix, got, c.want)
		}
	}
}

func TestArmLabels(t *testing.T) {
	str := func(s string) *schema.Value { v := value(t, `"`+s+`"`); return &v }
	obj := func(fields ...*ir.Field) *ir.Ref {
		return ir.NamedRef(&ir.Type{Kind: ir.KindStruct, Fields: fields})
	}
	req := func(name string) *ir.Field { return &ir.Field{JSONName: name, Required: true} }
	opt := func(name string) *ir.Field { return &ir.Field{JSONName: name} }
	constField := func(name, v string, required bool) *ir.Field {
		return &ir.Field{JSONName: name, Required: required, Const: str(v), Fixed: required}
	}
	cases := []struct {
		name string
		u    *ir.Union
		want []string
	}{
		{
			name: "required const values",
			u: &ir.Union{Arms: []*ir.Arm{
				{Type: obj(constField("type", "url", true), req("value"))},
				{Type: obj(constField("type", "artifact", true), req("value"))},
			}},
			want: []string{"URL", "Artifact"},
		},
		{
			name: "discriminator values",
			u: &ir.Union{DiscProps: []string{"kind"}, Arms: []*ir.Arm{
				{Disc: [][]schema.Value{{value(t, `"cost_per"`)}}},
				{Disc: [][]schema.Value{{value(t, `"roas"`)}}},
			}},
			want: []string{"CostPer", "ROAS"},
		},
		{
			name: "boolean flags name the key",
			u: &ir.Union{Arms: []*ir.Arm{
				{Fixed: []ir.ConstPresent{{Key: "context_match", Value: value(t, `true`)}}},
				{Fixed: []ir.ConstPresent{{Key: "identity_match", Value: value(t, `true`)}}},
			}},
			want: []string{"ContextMatch", "IdentityMatch"},
		},
		{
			name: "a required key no other arm requires",
			u: &ir.Union{Arms: []*ir.Arm{
				{Type: obj(req("authoritative_location"), opt("last_updated"))},
				{Type: obj(req("authorized_agents"), opt("last_updated"), constField("catalog_role", "x", false))},
			}},
			want: []string{"AuthoritativeLocation", "AuthorizedAgents"},
		},
		{
			name: "the set of required keys",
			u: &ir.Union{Arms: []*ir.Arm{
				{Type: obj(req("literalString"))},
				{Type: obj(req("path"))},
				{Type: obj(req("literalString"), req("path"))},
			}},
			want: []string{"LiteralString", "Path", "LiteralStringPath"},
		},
		{
			name: "the only property",
			u: &ir.Union{Arms: []*ir.Arm{
				{Type: obj(opt("all_values"))},
				{Type: obj(opt("values"))},
			}},
			want: []string{"AllValues", "Values"},
		},
		{
			name: "indistinguishable arms keep no label",
			u: &ir.Union{Arms: []*ir.Arm{
				{Type: obj(opt("a"), opt("b"))},
				{Type: obj(opt("a"), opt("b"))},
			}},
			want: []string{"", ""},
		},
		{
			name: "labels two arms would share are dropped",
			u: &ir.Union{Arms: []*ir.Arm{
				{Type: obj(constField("type", "a", true))},
				{Type: obj(constField("kind", "a", true))},
			}},
			want: []string{"", ""},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ArmLabels(tc.u)
			for i := range tc.want {
				if got[i] != tc.want[i] {
					t.Fatalf("labels %q, want %q", got, tc.want)
				}
			}
		})
	}
}

func TestPositionalArmsRelabelled(t *testing.T) {
	u := absolute("adagents.json#", rankRoot, "AdAgents")
	a0 := inline("adagents.json#/oneOf/0", u, "Variant1")
	a1 := inline("adagents.json#/oneOf/1", u, "Variant2")
	a0.Fields = []*ir.Field{{JSONName: "authoritative_location", Required: true}}
	a1.Fields = []*ir.Field{{JSONName: "authorized_agents", Required: true}}
	u.Kind = ir.KindUnion
	u.Union = &ir.Union{Strategy: ir.ByPresence, Arms: []*ir.Arm{
		{Label: "Variant1", Type: ir.NamedRef(a0)}, {Label: "Variant2", Type: ir.NamedRef(a1)},
	}}
	Assign(&ir.Package{Types: []*ir.Type{u, a0, a1}}, Keep{})
	if a0.Name != "AdAgentsAuthoritativeLocation" || a1.Name != "AdAgentsAuthorizedAgents" {
		t.Errorf("arm types %s, %s", a0.Name, a1.Name)
	}
	if g := u.Union.Arms[1].GoName; g != "AuthorizedAgents" {
		t.Errorf("arm field %s, want AuthorizedAgents", g)
	}
}

func TestNameTools(t *testing.T) {
	tools := []*ir.Tool{{Name: "validate_input"}, {Name: "get_products"}, {Name: "tasks/get"}, {Name: "get-products"}}
	taken := map[string]bool{"ValidateInputResult": true, "GetProductsResult": false}
	nameTools(tools, taken)
	want := [][2]string{
		{"ValidateInput", "ValidateInputTaskResult"},
		{"GetProducts2", "GetProducts2Result"},
		{"TasksGet", "TasksGetResult"},
		{"GetProducts", "GetProductsResult"},
	}
	for i, tool := range tools {
		if got := [2]string{tool.GoName, tool.ResultName}; got != want[i] {
			t.Errorf("%s: got %v, want %v", tool.Name, got, want[i])
		}
	}
}
