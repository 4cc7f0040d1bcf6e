package synth

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The generator's nullable test tree has null at every kind of location:
// inline, through $ref (to a definition, a root, another property), in
// items and map values, by enum and by anyOf, and merged through allOf.
func TestNullSites(t *testing.T) {
	tree, err := Load(os.DirFS("../../generator/testdata/schemas/nullable"))
	if err != nil {
		t.Fatal(err)
	}
	locs := tree.NullableLocations()
	want := []string{
		"core/metrics.json#/definitions/window",
		"core/metrics.json#/properties/by_region/additionalProperties",
		"core/metrics.json#/properties/pacing",
		"core/metrics.json#/properties/peer_quartiles",
		"core/metrics.json#/properties/quartiles",
		"core/metrics.json#/properties/ratio",
		"core/metrics.json#/properties/samples/items",
		"core/metrics.json#/properties/viewability",
		"core/metrics.json#/properties/viewability_alt",
		"core/metrics.json#/properties/window",
		"core/metrics.json#/properties/windows/items",
		"core/viewability.json#",
		"core/viewability.json#/properties/next",
		"media-buy/delivery.json#/properties/by_package/items/allOf/1/properties/quartiles",
	}
	if !slices.Equal(locs, want) {
		t.Fatalf("NullableLocations:\n%s\nwant\n%s", strings.Join(locs, "\n"), strings.Join(want, "\n"))
	}

	inst, err := tree.Synthesize("media-buy/delivery.json", Options{Max: true})
	if err != nil {
		t.Fatal(err)
	}
	sites, err := tree.NullSites("media-buy/delivery.json", inst.Value)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, s := range sites {
		got[Pointer(s.Pointer)] = s.Schemas
	}
	for ptr, schemas := range map[string][]string{
		"/quartiles":                   {"core/metrics.json#/properties/quartiles"},
		"/by_package/0/quartiles":      {"core/metrics.json#/properties/quartiles", "media-buy/delivery.json#/properties/by_package/items/allOf/1/properties/quartiles"},
		"/totals/window":               {"core/metrics.json#/definitions/window", "core/metrics.json#/properties/window"},
		"/viewability":                 {"core/metrics.json#/properties/viewability", "core/viewability.json#"},
		"/viewability_alt":             {"core/metrics.json#/properties/viewability_alt", "core/metrics.json#/properties/viewability_alt/anyOf/0", "core/metrics.json#/properties/viewability_alt/anyOf/1", "core/viewability.json#"},
		"/by_package/0/peer_quartiles": {"core/metrics.json#/properties/peer_quartiles", "core/metrics.json#/properties/quartiles"},
	} {
		if !slices.Equal(got[ptr], schemas) {
			t.Errorf("%s: schemas %q, want %q", ptr, got[ptr], schemas)
		}
	}
	for ptr := range got {
		if strings.HasSuffix(ptr, "/impressions") || ptr == "/totals" || ptr == "/by_package/0" {
			t.Errorf("%s admits no null but is listed", ptr)
		}
	}

	data := string(Marshal(WithNull(inst.Value, []string{"samples", "2"})))
	if !strings.Contains(data, `"samples":["synth","synth-1",null]`) {
		t.Fatalf("WithNull appending an item: %s", data)
	}
	data = string(Marshal(WithNull(inst.Value, []string{"totals", "quartiles"})))
	if !strings.Contains(data, `"totals":{"quartiles":null}`) {
		t.Fatalf("WithNull adding a member: %s", data)
	}
}
