package idempotency

import "testing"

func TestWithoutMember(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"context":{"x":[1,2]},"b":2}`, `{"a":1,"b":2}`},
		{`{"context":{"x":1},"a":1}`, `{"a":1}`},
		{`{"a":1,"context":"c"}`, `{"a":1}`},
		{`{"context":{}}`, `{}`},
		{`{ "a" : 1 , "context" : { } , "b":2 }`, `{ "a" : 1 , "b":2 }`},
		{`{ "context" : { } , "b":2 }`, `{  "b":2 }`},
		{`{"a":{"context":1}}`, `{"a":{"context":1}}`},
		{`{"\u0063ontext":1,"a":2}`, `{"a":2}`},
		{`{}`, `{}`},
	} {
		if got := string(withoutMember([]byte(c.in), "context")); got != c.want {
			t.Errorf("withoutMember(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}
