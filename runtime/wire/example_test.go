package wire_test

import (
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Decoding a payload into a generated type (here the AdCP error object of
// generated/adcp): what the schema forbids, a hostile key or a wrong type
// is a *wire.DecodeError naming the value's JSON pointer.
func ExampleUnmarshal() {
	var e adcp.Error
	err := wire.Unmarshal([]byte(`{"code":"RATE_LIMITED","message":"Slow down","retry_after":5}`), &e)
	fmt.Println(e.Code, *e.RetryAfter, err)

	for _, payload := range []string{
		`{"code":"RATE_LIMITED","message":"Slow down","retry_after":"5"}`,
		`{"code":"RATE_LIMITED","message":"Slow down","details":{"__proto__":{"admin":true}}}`,
		`{"code":"RATE_LIMITED","code":"OK","message":"Slow down"}`,
		`{"message":"Slow down"}`,
	} {
		var de *wire.DecodeError
		if err := wire.Unmarshal([]byte(payload), &e); errors.As(err, &de) {
			fmt.Printf("%s at %q: %s\n", de.Kind, de.Pointer, de.Message)
		}
	}
	// Output:
	// RATE_LIMITED 5 <nil>
	// type at "/retry_after": want number, got string
	// forbidden_key at "/details/__proto__": forbidden key "__proto__"
	// duplicate at "/code": duplicate key "code"
	// missing at "": missing required field "code"
}

// Encoding writes the members in schema order, then the undeclared ones
// the value kept, sorted.
func ExampleMarshal() {
	var e adcp.Error
	if err := wire.Unmarshal([]byte(`{"vendor_trace":"t-1","message":"Slow down","code":"RATE_LIMITED"}`), &e); err != nil {
		panic(err)
	}
	out, err := wire.Marshal(&e)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// {"code":"RATE_LIMITED","message":"Slow down","vendor_trace":"t-1"}
}

// A field that admits null keeps absent, null and a value apart.
func ExampleNullable() {
	for _, n := range []wire.Nullable[string]{{}, wire.Null[string](), wire.Some("x")} {
		v, ok := n.Get()
		fmt.Println(n.IsAbsent(), n.IsNull(), v, ok)
	}
	// Output:
	// true false  false
	// false true  false
	// false false x true
}
