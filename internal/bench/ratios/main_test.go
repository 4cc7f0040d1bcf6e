package main

import (
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkGetProducts/json.Valid-2         	    9679	    116089 ns/op	 307.29 MB/s	       0 B/op	       0 allocs/op
BenchmarkGetProducts/wire.Unmarshal-2     	    9541	    126161 ns/op	 282.76 MB/s	   92014 B/op	     494 allocs/op
BenchmarkGetProducts/wire.Unmarshal-2     	    9541	    130000 ns/op	 282.76 MB/s	   92014 B/op	     494 allocs/op
BenchmarkGetProducts/wire.Unmarshal-2     	    9541	    900000 ns/op	 282.76 MB/s	   92014 B/op	     494 allocs/op
BenchmarkGetProducts/encoding-json-plain-2	    2913	    382358 ns/op	  93.30 MB/s	   80115 B/op	    1340 allocs/op
--- FAIL: something
PASS
`

func TestParseAndMedian(t *testing.T) {
	runs, order, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(order, ",") != "GetProducts/json.Valid,GetProducts/wire.Unmarshal,GetProducts/encoding-json-plain" {
		t.Fatalf("order %v", order)
	}
	m := median(runs["GetProducts/wire.Unmarshal"])
	if m.ns != 130000 || m.allocs != 494 || m.bytes != 92014 {
		t.Fatalf("median %+v, want 130000 ns, 92014 B, 494 allocs (the outlier ignored)", m)
	}
	if v := median(runs["GetProducts/json.Valid"]); v.allocs != 0 || v.ns != 116089 {
		t.Fatalf("json.Valid %+v", v)
	}
}
