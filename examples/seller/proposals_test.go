package main

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	"example.com/seller/adcp"
	"example.com/seller/adcp31"
	"example.com/seller/adcp32"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Proposals in each release: a brief gets two (a balanced plan and a
// focused one); a finalize goes alone (INVALID_REQUEST naming the other
// entry); two finalizes commit both, each acknowledged in order; an
// unknown proposal is the release's not-found code (3.0 has no
// PROPOSAL_NOT_FOUND), on refine and on create_media_buy alike.
func TestProposalsPerRelease(t *testing.T) {
	base := startAgent(t)
	ctx := t.Context()
	m, err := mcpclient.ConnectHTTP(ctx, base+"/mcp", client(testKey), mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	n := 0
	for _, tc := range []struct {
		spec     *registry.Spec
		notFound string
	}{{adcp.Spec(), "REFERENCE_NOT_FOUND"}, {adcp31.Spec(), "PROPOSAL_NOT_FOUND"}, {adcp32.Spec(), "PROPOSAL_NOT_FOUND"}} {
		c, err := buyer.New(tc.spec, m)
		if err != nil {
			t.Fatal(err)
		}
		pin := c.Release()
		invoke := func(tool, args string) *buyer.Reply {
			t.Helper()
			r, err := c.Invoke(ctx, tool, json.RawMessage(args))
			if err != nil {
				t.Fatalf("%s %s: %v", pin, tool, err)
			}
			return r
		}
		errOf := func(tool, args string) (code, field string) {
			t.Helper()
			_, err := c.Invoke(ctx, tool, json.RawMessage(args))
			var ae *adcperr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("%s %s: %v, want an AdCP error", pin, tool, err)
			}
			return ae.Code, ae.Field
		}
		brief := wire.Lenient(invoke("get_products", `{"buying_mode":"brief","brief":"Premium video and display, Q2 flight",`+acme+`}`).Data)
		first, _ := brief.Get("proposals").Index(0).Get("proposal_id").AsString()
		second, _ := brief.Get("proposals").Index(1).Get("proposal_id").AsString()
		if first != "balanced_reach_q2" || second != "focused_reach_q2" {
			t.Fatalf("%s: proposals %q and %q", pin, first, second)
		}
		finalize := func(id string) string { return `{"scope":"proposal","proposal_id":"` + id + `","action":"finalize"}` }
		if code, field := errOf("get_products", `{"buying_mode":"refine","refine":[`+finalize(first)+`,{"scope":"request","ask":"More CTV"}],`+acme+`}`); code != "INVALID_REQUEST" || field != "refine[1]" {
			t.Errorf("%s: finalize with a request refinement: %s %s", pin, code, field)
		}
		if code, _ := errOf("get_products", `{"buying_mode":"refine","refine":[`+finalize(first)+`,`+finalize("nope")+`],`+acme+`}`); code != tc.notFound {
			t.Errorf("%s: finalizing an unknown proposal with a known one: %s", pin, code)
		}
		buyArgs := func(proposal string) string {
			n++
			return `{"idempotency_key":"proposal-release-key-` + strconv.Itoa(100000+n) + `",` + acme + `,"brand":{"domain":"acmeoutdoor.example"},` +
				`"proposal_id":"` + proposal + `","total_budget":{"amount":1000,"currency":"USD"},"start_time":"asap","end_time":"2026-12-31T00:00:00Z"}`
		}
		if code, _ := errOf("create_media_buy", buyArgs(first)); code != "PROPOSAL_NOT_COMMITTED" {
			t.Errorf("%s: after the refused finalizes, buying the known proposal: %s (it was committed)", pin, code)
		}
		both := wire.Lenient(invoke("get_products", `{"buying_mode":"refine","refine":[`+finalize(first)+`,`+finalize(second)+`],`+acme+`}`).Data)
		for i, id := range []string{first, second} {
			if !both.Get("proposals").Index(i).Get("proposal_status").StringIs("committed") ||
				!both.Get("refinement_applied").Index(i).Get("proposal_id").StringIs(id) || !both.Get("refinement_applied").Index(i).Get("status").StringIs("applied") {
				t.Errorf("%s: two finalizes: %s", pin, both)
			}
		}
		if code, _ := errOf("get_products", `{"buying_mode":"refine","refine":[{"scope":"proposal","proposal_id":"nope"}],`+acme+`}`); code != tc.notFound {
			t.Errorf("%s: refining an unknown proposal: %s", pin, code)
		}
		code, _ := errOf("create_media_buy", buyArgs("nope"))
		if code != tc.notFound {
			t.Errorf("%s: buying an unknown proposal: %s", pin, code)
		}
	}
}
