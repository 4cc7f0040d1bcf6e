package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// printGrades passes only when every run passed and every vector passed in
// some run, saying which the grader could not send and which it graded in
// its own library.
func TestPrintGrades(t *testing.T) {
	v := func(kind, id string, passed, skipped bool, reason string, status int) gradeVector {
		return gradeVector{ID: id, Kind: kind, Passed: passed, Skipped: skipped, SkipReason: reason, HTTPStatus: status}
	}
	main := &gradeResult{Run: gradeRuns[0], Report: &gradeReport{Passed: true, PassedCount: 3, SkippedCount: 3,
		Positive: []gradeVector{v("positive", "001-basic-post", true, false, "", 200)},
		Negative: []gradeVector{
			v("negative", "007-missing-content-digest", true, true, "operator_skip", 0),
			v("negative", "018-digest-covered-when-forbidden", true, true, "operator_skip", 0),
			v("negative", "025-jwk-alg-crv-mismatch", true, false, "", 0),
			v("negative", "026-non-ascii-host", true, true, "transport_ungradable", 0),
			v("negative", "027-webhook-registration-authentication-unsigned", true, false, "", 401),
		}}}
	strict := func(id string, passed bool) *gradeResult {
		r := &gradeReport{Passed: passed, PassedCount: 1, Negative: []gradeVector{v("negative", id, passed, false, "", 401)}}
		if !passed {
			r.PassedCount, r.FailedCount = 0, 1
		}
		return &gradeResult{Run: gradeRuns[1], Report: r}
	}
	// A vector skipped as not applicable to the seller's capabilities
	// (028 to a seller requiring no protocol method signed) is said so.
	withProtocolMethod := &gradeResult{Run: gradeRuns[0], Report: &gradeReport{Passed: true, PassedCount: 3, SkippedCount: 4,
		Positive: main.Report.Positive, Negative: append(main.Report.Negative[:len(main.Report.Negative):len(main.Report.Negative)],
			v("negative", "028-unsigned-protocol-method-required", true, true, "operator_skip", 0))}}
	for _, tc := range []struct {
		name          string
		results       []*gradeResult
		notApplicable []string
		ok            bool
		want          []string
	}{
		{"every vector in some run", []*gradeResult{main, strict("007-missing-content-digest", true), strict("018-digest-covered-when-forbidden", true)}, nil, true,
			[]string{"5 of 6", "cannot send negative/026-non-ascii-host", "negative/025-jwk-alg-crv-mismatch graded in the SDK's own verifier"}},
		{"a vector no run passed", []*gradeResult{main, strict("007-missing-content-digest", true)}, nil, false,
			[]string{"vectors no run passed: negative/018-digest-covered-when-forbidden"}},
		{"a failed run", []*gradeResult{main, strict("007-missing-content-digest", false), strict("018-digest-covered-when-forbidden", true)}, nil, false,
			[]string{"1 failed", "negative/007-missing-content-digest"}},
		{"a vector not applicable", []*gradeResult{withProtocolMethod, strict("007-missing-content-digest", true), strict("018-digest-covered-when-forbidden", true)},
			[]string{"028-unsigned-protocol-method-required"}, true,
			[]string{"5 of 7", "not applicable to the seller's capabilities: negative/028-unsigned-protocol-method-required"}},
		{"a vector skipped otherwise", []*gradeResult{withProtocolMethod, strict("007-missing-content-digest", true), strict("018-digest-covered-when-forbidden", true)},
			nil, false, []string{"vectors no run passed: negative/028-unsigned-protocol-method-required"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if ok := printGrades(&b, tc.results, tc.notApplicable); ok != tc.ok {
				t.Fatalf("ok %v, want %v:\n%s", ok, tc.ok, b.String())
			}
			for _, s := range tc.want {
				if !strings.Contains(b.String(), s) {
					t.Errorf("no %q in:\n%s", s, b.String())
				}
			}
		})
	}
}

// withSkips adds the vectors to a run's --skip list, and leaves a run
// that names its vectors (--only) as it is.
func TestWithSkips(t *testing.T) {
	for _, tc := range []struct{ args, ids, want []string }{
		{[]string{"--transport", "raw", "--skip", "007,018"}, []string{"028"}, []string{"--transport", "raw", "--skip", "007,018,028"}},
		{[]string{"--transport", "mcp"}, []string{"028", "029"}, []string{"--transport", "mcp", "--skip", "028,029"}},
		{[]string{"--only", "007,002"}, []string{"028"}, []string{"--only", "007,002"}},
		{[]string{"--skip", "007"}, nil, []string{"--skip", "007"}},
	} {
		if got := withSkips(tc.args, tc.ids); !slices.Equal(got, tc.want) {
			t.Errorf("withSkips(%q, %q) = %q, want %q", tc.args, tc.ids, got, tc.want)
		}
	}
}
