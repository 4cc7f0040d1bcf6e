package main

import (
	"bytes"
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
	for _, tc := range []struct {
		name    string
		results []*gradeResult
		ok      bool
		want    []string
	}{
		{"every vector in some run", []*gradeResult{main, strict("007-missing-content-digest", true), strict("018-digest-covered-when-forbidden", true)}, true,
			[]string{"5 of 6", "cannot send negative/026-non-ascii-host", "negative/025-jwk-alg-crv-mismatch graded in the SDK's own verifier"}},
		{"a vector no run passed", []*gradeResult{main, strict("007-missing-content-digest", true)}, false,
			[]string{"vectors no run passed: negative/018-digest-covered-when-forbidden"}},
		{"a failed run", []*gradeResult{main, strict("007-missing-content-digest", false), strict("018-digest-covered-when-forbidden", true)}, false,
			[]string{"1 failed", "negative/007-missing-content-digest"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if ok := printGrades(&b, tc.results); ok != tc.ok {
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
