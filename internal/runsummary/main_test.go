package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		dir, want string
		tools     []string
	}{
		{"../../generated/adcp", "Generated package adcp (spec adcpgen-core-2) in ../../generated/adcp: ", []string{"109 error codes, 0 tools.", "tools: none"}},
		{"../../generated/adcpt", "Generated package adcpt (spec 3.90.0-test) in ../../generated/adcpt: 21 files, 14 error codes, 4 tools.", []string{"create_media_buy, get_adcp_capabilities, get_products, list_creatives"}},
	} {
		var out bytes.Buffer
		if err := summarize(&out, tc.dir); err != nil {
			t.Fatal(err)
		}
		for _, want := range append(tc.tools, tc.want, "Try next:", "./bin/adcpgen help") {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: the summary lacks %q:\n%s", tc.dir, want, out.String())
			}
		}
	}
	if err := summarize(&bytes.Buffer{}, t.TempDir()); err == nil {
		t.Error("an empty directory summarized without an error")
	}
}
