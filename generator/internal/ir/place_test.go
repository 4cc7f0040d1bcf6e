package ir

import "testing"

func TestPlaceOf(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"core/a.json#", "core/a.json#"},
		{"core/a.json#/properties/p/items", "core/a.json#/properties/p/items"},
		// A place in an allOf member is the merged struct's.
		{"core/a.json#/allOf/1/properties/p/items", "core/a.json#/properties/p/items"},
		{"core/a.json#/properties/r/items/allOf/2/properties/p/items/allOf/0/properties/q", "core/a.json#/properties/r/items/properties/p/items/properties/q"},
		{"core/a.json#/allOf/1/allOf/0/properties/p", "core/a.json#/properties/p"},
		{"core/a.json#/allOf/1/properties/p in core/b.json#/allOf/0/properties/x", "core/a.json#/properties/p in core/b.json#/properties/x"},
		// An allOf member itself, and anything in a union arm, is known by
		// its index alone.
		{"core/a.json#/allOf/1", ""},
		{"core/a.json#/oneOf/1/properties/p", ""},
		{"core/a.json#/allOf/1/properties/p/anyOf/0", ""},
		{"core/a.json#/properties/p in core/b.json#/oneOf/2", ""},
	} {
		if got := PlaceOf(tc.key); got != tc.want {
			t.Errorf("PlaceOf(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}
