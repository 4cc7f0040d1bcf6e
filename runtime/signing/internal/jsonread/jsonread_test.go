package jsonread

import (
	"slices"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

func TestStringArray(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string
		problem string
	}{
		{``, nil, ""},
		{`[]`, nil, ""},
		{`["sign","verify"]`, []string{"sign", "verify"}, ""},
		{`"sign"`, nil, "is not an array"},
		{`["sign",1]`, nil, "holds a non-string"},
	} {
		var v wire.Lenient
		if tc.in != "" {
			var err error
			if v, err = wire.ParseLenient([]byte(tc.in)); err != nil {
				t.Fatal(err)
			}
		}
		got, problem := StringArray(v)
		if !slices.Equal(got, tc.want) || problem != tc.problem {
			t.Errorf("StringArray(%s) = %q, %q; want %q, %q", tc.in, got, problem, tc.want, tc.problem)
		}
	}
}
