package wire

import (
	"encoding/json"
	"slices"
	"testing"
)

// scanSpans is where each member of obj lies, read from its bytes.
func scanSpans(obj Lenient) []Span {
	var out []Span
	obj.memberSpans(func(_ Lenient, ks, vs, ve int) bool {
		out = append(out, Span{Key: ks, Start: vs, End: ve})
		return true
	})
	return out
}

// The spans AppendSpans records are where a reader finds the members.
func TestAppendSpans(t *testing.T) {
	full, err := decodeAll(t, eAllFull, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []*eAll{full, {ID: "i", Home: ePoint{1, 2}, Extra: map[string]json.RawMessage{"z\"q": []byte(` [ 1 ] `)}, Matching: map[string]int64{"x_a": 1}}} {
		for _, prefix := range []string{"", "xyz"} {
			out, spans, err := AppendSpans([]byte(prefix), v, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := scanSpans(Lenient(out[len(prefix):]))
			for i := range want {
				want[i].Key, want[i].Start, want[i].End = want[i].Key+len(prefix), want[i].Start+len(prefix), want[i].End+len(prefix)
			}
			if !slices.Equal(spans, want) {
				t.Errorf("%s: spans %v, want %v", out, spans, want)
			}
			if plain, err := Marshal(v); err != nil || string(plain) != string(out[len(prefix):]) {
				t.Errorf("AppendSpans wrote %s, Marshal %s", out, plain)
			}
		}
	}
	if out, spans, err := AppendSpans(nil, (*eAll)(nil), nil); err != nil || string(out) != "null" || len(spans) != 0 {
		t.Errorf("nil: %s %v %v", out, spans, err)
	}
}

// EditMembersAt writes what EditMembers does, and says where the result's
// members lie.
func TestEditMembersAt(t *testing.T) {
	for _, in := range []string{`{}`, `{ }`, `{"a":1}`, `{ "a" : 1 , "k" : "old" }`, `{"k":1,"k":2,"j":[{"k":3}]}`,
		`{"\u006b":"escaped","j":null}`, `{"a":"x\"k\":1","context":{"c":1}}`} {
		for _, es := range [][][2]string{nil, {{"k", `"v"`}}, {{"j", `true`}, {"k", `{"n":[1]}`}, {"new", `0`}, {"context", `{"x":1}`}},
			{{"k", `1`}, {"j", `2`}, {"k", `3`}}, {{"a", `1`}, {"a", `2`}, {"b", `3`}}} {
			checkEditAt(t, in, es)
		}
	}
}

func checkEditAt(t *testing.T, in string, es [][2]string) {
	t.Helper()
	v, err := ParseLenient([]byte(in))
	if err != nil || !v.IsObject() {
		return
	}
	var names []string
	var values [][]byte
	for _, e := range es {
		names, values = append(names, e[0]), append(values, []byte(e[1]))
	}
	edit := func([]Lenient) ([][]byte, error) { return slices.Clone(values), nil }
	want, err := v.EditMembers(names, edit)
	if err != nil {
		t.Fatal(err)
	}
	got, spans, err := v.EditMembersAt(scanSpans(v), names, edit)
	if err != nil || string(got) != string(want) {
		t.Fatalf("%s with %v: EditMembersAt %s %v, EditMembers %s", in, es, got, err, want)
	}
	if w := scanSpans(Lenient(got)); !slices.Equal(spans, w) {
		t.Fatalf("%s with %v: spans %v, want %v (%s)", in, es, spans, w, got)
	}
}

func FuzzEditMembersAt(f *testing.F) {
	f.Add(`{"a":1,"k":2}`, "k", `3`, "z", `"q"`)
	f.Add(`{ }`, "a", `[]`, "a", `{}`)
	f.Fuzz(func(t *testing.T, in, n1, v1, n2, v2 string) {
		a, err1 := ParseLenient([]byte(v1)) // values as the seller gives them: no space around
		b, err2 := ParseLenient([]byte(v2))
		if err1 != nil || err2 != nil || Valid(a) != nil || Valid(b) != nil {
			return
		}
		checkEditAt(t, in, [][2]string{{n1, string(a)}, {n2, string(b)}})
	})
}
