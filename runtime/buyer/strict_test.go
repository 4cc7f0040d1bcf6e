package buyer_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Hostile seller bytes, through the SDKs, in every framing: the typed
// call fails with the JSON pointer of the offending key, where the SDKs'
// own decoding would have kept the last duplicate or resolved the escape.
func TestHostilePayloads(t *testing.T) {
	cases := []struct {
		name    string
		a       answer
		kind    wire.Kind
		pointer string // the pointer's end
	}{
		{"duplicate key", answer{payload: `{"things":[{"thing_id":"a","thing_id":"b","name":"x"}]}`}, wire.KindDuplicate, "/things/0/thing_id"},
		{"escaped __proto__", answer{payload: `{"things":[],"context":{"\u005f_proto__":{"polluted":true}}}`}, wire.KindForbiddenKey, "/context/__proto__"},
		{"duplicate in text fallback", answer{payload: `{"things":[{"thing_id":"a","name":"x","name":"y"}]}`, asText: true}, wire.KindDuplicate, "/things/0/name"},
		{"__proto__ in text fallback", answer{payload: `{"things":[{"thing_id":"a","name":"x","__proto__":1}]}`, asText: true}, wire.KindForbiddenKey, "/things/0/__proto__"},
		// No type decodes get_things' submitted payload (task.None): it
		// is checked all the same.
		{"duplicate in an untyped interim payload", answer{state: task.Submitted, payload: `{"status":"submitted","task_id":"t","context":{"a":1,"a":2}}`}, wire.KindDuplicate, "/context/a"},
	}
	for _, tc := range cases {
		for _, f := range framings {
			if tc.a.asText && f == a2aRPC {
				continue
			}
			t.Run(tc.name+"/"+string(f), func(t *testing.T) {
				r := newRig(t, f, scripted(map[string][]answer{"get_things": {tc.a}}))
				res, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
				var pe *buyer.SellerDataError
				var de *wire.DecodeError
				if !errors.As(err, &pe) || !errors.As(err, &de) {
					t.Fatalf("want a SellerDataError with a DecodeError, got %v (%+v)", err, res)
				}
				if de.Kind != tc.kind || !strings.HasSuffix(de.Pointer, tc.pointer) {
					t.Errorf("kind %s pointer %q, want %s ...%s (%v)", de.Kind, de.Pointer, tc.kind, tc.pointer, err)
				}
				if !strings.Contains(err.Error(), tc.pointer) || pe.Source == "" {
					t.Errorf("the message does not say where: %v", err)
				}
			})
		}
	}
}

// A duplicate member in the JSON-RPC envelope itself (a hostile
// intermediary) is refused before extraction.
func TestDuplicateEnvelopeMember(t *testing.T) {
	for _, f := range framings {
		t.Run(string(f), func(t *testing.T) {
			r := newRigConfig(t, f, scripted(map[string][]answer{"get_things": {{payload: thingsPayload}}}), rigConfig{repeatResult: true})
			_, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
			if err == nil || !strings.Contains(err.Error(), "duplicate member") {
				t.Fatalf("got %v", err)
			}
		})
	}
}

// A 2 MiB payload: refused by default (AdCP's 1 MiB cap on
// structuredContent and text items, which bounds memory), decoded whole
// with a larger cap.
func TestLargePayload(t *testing.T) {
	name := strings.Repeat("x", 2<<20)
	payload := `{"things":[{"thing_id":"big","name":"` + name + `"}]}`
	for _, f := range framings {
		t.Run(string(f), func(t *testing.T) {
			script := scripted(map[string][]answer{"get_things": {{payload: payload}}})
			if f == mcpSSE {
				r := newRig(t, f, script, buyer.WithoutRetries())
				_, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
				if !errors.Is(err, extract.ErrTooLarge) {
					t.Errorf("default cap: got %v", err)
				}
			}
			for _, opt := range []buyer.ClientOption{buyer.WithMaxPayload(4 << 20), buyer.WithExtractor(extract.New(tinyadcp.Spec(), extract.WithPayloadCap(4<<20)))} {
				big := newRig(t, f, script, opt)
				res, err := buyer.Call(t.Context(), big.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
				if err != nil {
					t.Fatal(err)
				}
				if got := res.Response.Things[0].Name; len(got) != len(name) {
					t.Errorf("name of %d bytes, want %d", len(got), len(name))
				}
			}
			// Over the cap (MCP's: AdCP caps structuredContent and text
			// items), the error names the payload's size and the cap.
			if f == a2aRPC {
				return
			}
			small := newRig(t, f, script, buyer.WithMaxPayload(1<<20), buyer.WithoutRetries())
			_, err := buyer.Call(t.Context(), small.client, tinyadcp.Tools.GetThings, &tinyadcp.GetThingsRequest{})
			if !errors.Is(err, extract.ErrTooLarge) || !strings.Contains(err.Error(), fmt.Sprintf("is %d bytes, over the cap of 1048576", len(payload))) {
				t.Errorf("1 MiB cap: got %v", err)
			}
		})
	}
}
