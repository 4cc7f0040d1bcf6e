package wire

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wireimpl"
)

// record exercises every arena-backed path: strings, optional scalars,
// kept unknown members (keys and raw values), maps and empty arrays.
type record struct {
	Name  string                     `json:"name"`
	Score *float64                   `json:"score"`
	Count *int64                     `json:"count"`
	On    *bool                      `json:"on"`
	Note  *string                    `json:"note"`
	Tags  []string                   `json:"tags"`
	Attrs map[string]string          `json:"attrs"`
	Extra map[string]json.RawMessage `json:"-"`
}

var (
	sliceOfRecordString = wireimpl.Desc{Shape: wireimpl.ShapeSlice, Go: (*[]string)(nil), Elem: &wireimpl.DescString}
	mapOfRecordString   = wireimpl.Desc{Shape: wireimpl.ShapeMap, Go: (*map[string]string)(nil), Elem: &wireimpl.DescString}
	descRecord          = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "record", Go: (*record)(nil), Members: []wireimpl.Member{
		{Name: "name", Desc: &wireimpl.DescString},
		{Name: "score", Desc: &wireimpl.DescFloat},
		{Name: "count", Desc: &wireimpl.DescInt},
		{Name: "on", Desc: &wireimpl.DescBool},
		{Name: "note", Desc: &wireimpl.DescString},
		{Name: "tags", Desc: &sliceOfRecordString},
		{Name: "attrs", Desc: &mapOfRecordString},
	}}
)

func (*record) WireDesc() *wireimpl.Desc { return &descRecord }

func recordJSON(i int) string {
	long := strings.Repeat("L", arenaMax+10)
	return fmt.Sprintf(`{"name":"n%d","score":%d.5,"count":%d,"on":true,"note":"note %d","tags":["a%d","b\u00e9%d"],"attrs":{"k%d":"v%d"},"x%d":{"deep":[%d, "s%d"]},"long":"%s%d"}`,
		i, i, i, i, i, i, i, i, i, i, i, long, i)
}

func checkRecord(t *testing.T, i int, v *record) {
	t.Helper()
	long := strings.Repeat("L", arenaMax+10)
	ok := v.Name == fmt.Sprintf("n%d", i) && *v.Score == float64(i)+0.5 && *v.Count == int64(i) && *v.On &&
		*v.Note == fmt.Sprintf("note %d", i) && len(v.Tags) == 2 && v.Tags[1] == fmt.Sprintf("b\u00e9%d", i) &&
		v.Attrs[fmt.Sprintf("k%d", i)] == fmt.Sprintf("v%d", i) &&
		string(v.Extra[fmt.Sprintf("x%d", i)]) == fmt.Sprintf(`{"deep":[%d,"s%d"]}`, i, i) &&
		string(v.Extra["long"]) == fmt.Sprintf(`"%s%d"`, long, i)
	if !ok {
		t.Fatalf("record %d changed or misread: %+v (score %v, count %v, note %v)", i, v, *v.Score, *v.Count, *v.Note)
	}
}

// Values from earlier documents stay intact while a pooled decoder keeps
// carving the next documents' values from the same blocks, also when
// several goroutines decode at once (run with -race).
func TestArenaValuesStayIntact(t *testing.T) {
	const n = 400
	kept := make([]*record, n)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < n; i += 4 {
				v := new(record)
				if err := Unmarshal([]byte(recordJSON(i)), v); err != nil {
					t.Error(err)
					return
				}
				kept[i] = v
				if i >= 4 {
					checkRecord(t, i-4, kept[i-4]) // read while others write
				}
			}
		}()
	}
	wg.Wait()
	for i, v := range kept {
		checkRecord(t, i, v)
	}
}

// Pieces do not overlap: writing through one optional scalar, or appending
// to one raw value, leaves the others alone.
func TestArenaPiecesAreSeparate(t *testing.T) {
	var a, b record
	if err := Unmarshal([]byte(recordJSON(1)), &a); err != nil {
		t.Fatal(err)
	}
	if err := Unmarshal([]byte(recordJSON(2)), &b); err != nil {
		t.Fatal(err)
	}
	*a.Score, *a.Count, *a.On, *a.Note = -1, -1, false, "changed"
	raw := a.Extra["x1"]
	if cap(raw) != len(raw) {
		t.Fatalf("raw value has spare capacity %d > %d: an append would write into a neighbour", cap(raw), len(raw))
	}
	a.Extra["x1"] = append(raw, " trailing"...)
	checkRecord(t, 2, &b)
	if *a.Score != -1 || *a.Count != -1 || *a.On || *a.Note != "changed" {
		t.Fatal("writes through optional scalars were lost")
	}
}

// An empty array decodes to a non-nil empty slice without allocating.
func TestEmptyArrayDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	data := []byte(`{"name":"","tags":[ ]}`)
	var v record
	allocs := testing.AllocsPerRun(100, func() {
		if err := Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
	})
	if v.Tags == nil || len(v.Tags) != 0 {
		t.Fatalf("tags = %#v, want a non-nil empty slice", v.Tags)
	}
	if allocs != 0 {
		t.Errorf("%v allocations, want 0", allocs)
	}
}

// Valid allocates nothing once its pooled decoder has grown, whatever the
// number of keys (linear duplicate checks, then a set past maxLinearKeys
// keys, which does allocate).
func TestValidAllocations(t *testing.T) {
	small := []byte(`{"a":{"b":[{"c":1,"d":"\u0065"}],"e":null},"f":[true,false]}`)
	if raceEnabled {
		t.Log("allocation count skipped under the race detector")
	} else if allocs := testing.AllocsPerRun(100, func() {
		if err := Valid(small); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("Valid: %v allocations, want 0", allocs)
	}
	var b strings.Builder
	b.WriteString("{")
	for i := range maxLinearKeys + 5 {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	b.WriteString(`"k3":0}`)
	err := Valid([]byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), `duplicate key "k3"`) {
		t.Fatalf("duplicate past the linear limit: %v", err)
	}
	nested := []byte(`{"a":{"x":1,"y":2},"b":{"x":1,"y":2},"a2":{"x":{"x":1},"y":{"x":1,"x":2}}}`)
	if err := Valid(nested); err == nil || !strings.Contains(err.Error(), "/a2/y/x") {
		t.Fatalf("nested duplicate: %v", err)
	}
}
