package wire

import "testing"

func TestWithMember(t *testing.T) {
	for _, tc := range []struct{ in, name, value, want string }{
		{`{}`, "k", `"v"`, `{"k":"v"}`},
		{`{ }`, "k", `1`, `{"k":1 }`},
		{`{"a":1}`, "k", `"v"`, `{"k":"v","a":1}`},
		{`{"a":1,"k":"old","b":[1,{"k":2}]}`, "k", `"new"`, `{"a":1,"k":"new","b":[1,{"k":2}]}`},
		{`{"\u006b":"escaped"}`, "k", `true`, `{"\u006b":true}`},
		{`{"k":1,"k":2}`, "k", `3`, `{"k":1,"k":3}`},
		{`{"a":"x\"k\":1"}`, "k", `null`, `{"k":null,"a":"x\"k\":1"}`},
		{`{"k/~":1}`, "k/~", `2`, `{"k/~":2}`},
	} {
		v, err := ParseLenient([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := v.WithMember(tc.name, []byte(tc.value))
		if !ok || string(got) != tc.want {
			t.Errorf("%s with %s=%s: got %s %v, want %s", tc.in, tc.name, tc.value, got, ok, tc.want)
		}
		if err := Valid(got); err != nil && tc.in != `{"k":1,"k":2}` {
			t.Errorf("%s: result %s is not valid: %v", tc.in, got, err)
		}
	}
	if _, ok := Lenient(`[1]`).WithMember("k", []byte(`1`)); ok {
		t.Error("an array got a member")
	}
}

func TestWithoutMember(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"context":{"x":[1,2]},"b":2}`, `{"a":1,"b":2}`},
		{`{"context":{"x":1},"a":1}`, `{"a":1}`},
		{`{"a":1,"context":"c"}`, `{"a":1}`},
		{`{"context":{}}`, `{}`},
		{`{ "a" : 1 , "context" : { } , "b":2 }`, `{ "a" : 1 , "b":2 }`},
		{`{ "context" : { } , "b":2 }`, `{ "b":2 }`},
		{`{ "a":1, "context" : { } }`, `{ "a":1 }`},
		{`{"a":{"context":1}}`, `{"a":{"context":1}}`},
		{`{"\u0063ontext":1,"a":2}`, `{"a":2}`},
		{`{"context":1,"a":2,"context":3}`, `{"a":2}`},
		{`{"a":"\"context\":1"}`, `{"a":"\"context\":1"}`},
		{`{}`, `{}`},
	} {
		v, err := ParseLenient([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := v.WithoutMember("context")
		if !ok || string(got) != c.want {
			t.Errorf("%s without context: got %s %v, want %s", c.in, got, ok, c.want)
		}
		if err := Valid(got); err != nil {
			t.Errorf("%s: result %s is not valid: %v", c.in, got, err)
		}
	}
	if _, ok := Lenient(`[1]`).WithoutMember("k"); ok {
		t.Error("an array lost a member")
	}
}

// WithMembers is WithMember applied in turn, in one pass.
func TestWithMembers(t *testing.T) {
	objects := []string{`{}`, `{ }`, `{"a":1}`, `{ "a" : 1 , "k" : "old" }`, `{"k":1,"k":2,"j":[{"k":3}]}`,
		`{"\u006b":"escaped","j":null}`, `{"a":"x\"k\":1","context":{"c":1}}`}
	edits := [][][2]string{
		nil,
		{{"k", `"v"`}},
		{{"status", `"completed"`}, {"k", `2`}, {"context_id", `"c"`}},
		{{"j", `true`}, {"k", `{"n":[1]}`}, {"new", `0`}, {"context", `{"x":1}`}},
		{{"k", `1`}, {"j", `2`}, {"k", `3`}},
		{{"a", `1`}, {"a", `2`}, {"b", `3`}, {"b", `4`}},
	}
	for _, in := range objects {
		v, err := ParseLenient([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		for _, es := range edits {
			want, names, values := []byte(v), []string{}, [][]byte{}
			for _, e := range es {
				want, _ = Lenient(want).WithMember(e[0], []byte(e[1]))
				names, values = append(names, e[0]), append(values, []byte(e[1]))
			}
			got, ok := v.WithMembers(names, values)
			if !ok || string(got) != string(want) {
				t.Errorf("%s with %v: got %s %v, want %s", in, es, got, ok, want)
			}
		}
	}
	if _, ok := Lenient(`[1]`).WithMembers([]string{"k"}, [][]byte{[]byte(`1`)}); ok {
		t.Error("an array got members")
	}
}

func FuzzWithMembers(f *testing.F) {
	f.Add(`{"a":1,"k":2}`, "k", `3`, "z", `"q"`)
	f.Add(`{ }`, "a", `[]`, "a", `{}`)
	f.Fuzz(func(t *testing.T, in, n1, v1, n2, v2 string) {
		v, err := ParseLenient([]byte(in))
		if err != nil || !v.IsObject() || Valid([]byte(v1)) != nil || Valid([]byte(v2)) != nil {
			return
		}
		want, _ := v.WithMember(n1, []byte(v1))
		want, _ = Lenient(want).WithMember(n2, []byte(v2))
		got, ok := v.WithMembers([]string{n1, n2}, [][]byte{[]byte(v1), []byte(v2)})
		if !ok || string(got) != string(want) {
			t.Fatalf("%s with %s=%s, %s=%s: got %s, want %s", in, n1, v1, n2, v2, got, want)
		}
	})
}
