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
