package roundtrip

import (
	"testing"

	"github.com/adcpgen/adcpgen/internal/synth"
)

func TestPackageName(t *testing.T) {
	for in, want := range map[string]string{"3.1.19": "v3_1_19", "3.2.0-beta.3": "v3_2_0_beta_3"} {
		if got := PackageName(in); got != want {
			t.Errorf("PackageName(%q) = %q, want %q", in, got, want)
		}
	}
}

// judgeMutation accepts the right kind at the right place, a union error
// at or above the place when a union decides, and nothing else.
func TestJudgeMutation(t *testing.T) {
	drop := &synth.Mutation{Op: synth.OpDropRequired, Pointer: "/a", Key: "k"}
	wrong := &synth.Mutation{Op: synth.OpWrongType, Pointer: "/a/k", Const: true}
	inUnion := &synth.Mutation{Op: synth.OpUnknown, Pointer: "/a/b/zz", Union: true}
	tests := []struct {
		m    *synth.Mutation
		e    *WireError
		okay bool
	}{
		{drop, &WireError{Kind: "missing", Pointer: "/a", Missing: []string{"k"}}, true},
		{drop, &WireError{Kind: "missing", Pointer: "/a", Missing: []string{"other"}}, false},
		{drop, &WireError{Kind: "missing", Pointer: ""}, false},
		{drop, nil, false},
		{drop, &WireError{Kind: "union", Pointer: ""}, false},
		{wrong, &WireError{Kind: "const", Pointer: "/a/k"}, true},
		{wrong, &WireError{Kind: "type", Pointer: "/a/k"}, true},
		{wrong, &WireError{Kind: "type", Pointer: "/a"}, false},
		{inUnion, &WireError{Kind: "union", Pointer: "/a"}, true},
		{inUnion, &WireError{Kind: "union", Pointer: "/ab"}, false},
		{inUnion, &WireError{Kind: "unknown_field", Pointer: "/a/b/zz"}, true},
	}
	for i, tc := range tests {
		if got := judgeMutation(tc.m, tc.e) == ""; got != tc.okay {
			t.Errorf("%d: judgeMutation(%+v, %v) okay = %v, want %v", i, tc.m, tc.e, got, tc.okay)
		}
	}
}
