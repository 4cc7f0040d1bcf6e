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

func TestStoreMetrics(t *testing.T) {
	const out = `BenchmarkSellerCreateMediaBuy/memory-2         	    1724	   2273460 ns/op	       439.9 calls/s	       212.4 p99-ms	  331749 B/op	     407 allocs/op
BenchmarkSellerCreateMediaBuy/postgres-pool16-2               	    1185	   3081016 ns/op	       324.6 calls/s	       297.2 p99-ms	  336211 B/op	     458 allocs/op
`
	runs, _, err := parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	m := median(runs["SellerCreateMediaBuy/memory"])
	if m.extra["calls/s"] != 439.9 || m.extra["p99-ms"] != 212.4 || m.bytes != 331749 || m.allocs != 407 {
		t.Fatalf("memory %+v", m)
	}
	if pg := median(runs["SellerCreateMediaBuy/postgres-pool16"]); pg.extra["calls/s"] != 324.6 {
		t.Fatalf("pool16 %+v", pg)
	}
}

func TestTelemetryMetrics(t *testing.T) {
	const out = `BenchmarkTelemetry/create_media_buy/memory-2     	      40	  76713937 ns/op	    419906 off-ns/call	         1.022 x-aa-off	         1.078 x-noprovider	         1.186 x-recording	26478764 B/op	   28491 allocs/op
BenchmarkTelemetry/create_media_buy/memory-2     	      40	  28472848 ns/op	    366188 off-ns/call	         1.007 x-aa-off	         1.001 x-noprovider	         1.122 x-recording	26466226 B/op	   28422 allocs/op
BenchmarkTelemetry/create_media_buy/memory-2     	      40	  28472848 ns/op	    366188 off-ns/call	         1.007 x-aa-off	         1.011 x-noprovider	         1.150 x-recording	26466226 B/op	   28422 allocs/op
`
	runs, _, err := parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	m := median(runs["Telemetry/create_media_buy/memory"])
	if m.extra["x-noprovider"] != 1.011 || m.extra["x-recording"] != 1.150 || m.extra["x-aa-off"] != 1.007 || m.extra["off-ns/call"] != 366188 {
		t.Fatalf("median %+v", m)
	}
}
