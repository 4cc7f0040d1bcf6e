package oteladcp_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// docs/telemetry.md's table lists every span name, metric and attribute
// the buyer and the seller emit, and nothing else: the names a run of the
// scenario emitted (on a release that signs requests, over both
// transports, a refused signature included) are exactly the table's.
func TestTable(t *testing.T) {
	table := readTable(t)
	emitted := map[string]map[string]bool{"span": {}, "metric": {}, "attribute": {}}
	var signed bool
	for _, r := range releases(t) {
		if r.version != "3.1.19" {
			continue
		}
		for _, transport := range []string{"mcp", "a2a"} {
			g, b := fullRun(t, r, transport)
			signed = g.signs
			for _, s := range spans(b.signal, g.seller) {
				if s.Name == "scenario" {
					continue
				}
				emitted["span"][spanPattern(s.Name)] = true
				for _, a := range s.Attributes {
					emitted["attribute"][string(a.Key)] = true
				}
			}
			for _, rm := range []metricdata.ResourceMetrics{g.seller.metrics(t), b.metrics(t)} {
				for _, sm := range rm.ScopeMetrics {
					for _, m := range sm.Metrics {
						emitted["metric"][m.Name] = true
						for _, set := range pointSets(m.Data) {
							for _, kv := range set.ToSlice() {
								emitted["attribute"][string(kv.Key)] = true
							}
						}
					}
				}
			}
		}
	}
	if !signed {
		t.Fatal("3.1.19 did not run, or without request signatures")
	}
	for kind, names := range emitted {
		for name := range names {
			if !table[kind][name] {
				t.Errorf("the %s %q is emitted, and missing from docs/telemetry.md's table", kind, name)
			}
		}
		for name := range table[kind] {
			if !names[name] {
				t.Errorf("docs/telemetry.md's table lists the %s %q, which the scenario did not emit", kind, name)
			}
		}
	}
}

// spanPattern is a span's name as the table lists it.
func spanPattern(name string) string {
	for _, m := range []string{"tools/call ", "message/send "} {
		if strings.HasPrefix(name, m) {
			return m + "{tool}"
		}
	}
	if strings.HasPrefix(name, "adcp.store.") {
		return "adcp.store.{operation}"
	}
	return name
}

func pointSets(data metricdata.Aggregation) []attribute.Set {
	var out []attribute.Set
	switch d := data.(type) {
	case metricdata.Histogram[float64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes)
		}
	case metricdata.Sum[int64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes)
		}
	}
	return out
}

// row is a line of the table: its first cell, a name in backquotes, and
// the start of its second ("span:", "metric:", "attribute").
var row = regexp.MustCompile("^\\| `([^`]+)` \\| (span|metric|attribute)")

// readTable reads the names of docs/telemetry.md's table, by kind.
func readTable(t *testing.T) map[string]map[string]bool {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "telemetry.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{"span": {}, "metric": {}, "attribute": {}}
	n := 0
	for _, line := range strings.Split(string(raw), "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			if out[m[2]][m[1]] {
				t.Errorf("docs/telemetry.md lists %q twice", m[1])
			}
			out[m[2]][m[1]] = true
			n++
		}
	}
	if n < 40 || !slices.ContainsFunc([]string{"span", "metric", "attribute"}, func(k string) bool { return len(out[k]) > 0 }) {
		t.Fatalf("docs/telemetry.md: only %d rows read", n)
	}
	return out
}
