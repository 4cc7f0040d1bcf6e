package main

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"testing"

	"example.com/seller/adcp"
	"example.com/seller/adcp31"
	"example.com/seller/adcp32"

	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// TestReleases: one seller, three releases. A buyer pinned at each of
// 3.0, 3.1 and 3.2-beta.5, over MCP and A2A, reads all three in
// supported_versions and gets every tool's answer in its own release
// (echoed, decoded strictly into that release's types, and valid against
// its schemas: the seller validates every response), an async buy
// included, finished on its first status poll; another major and a patch
// are refused.
func TestReleases(t *testing.T) {
	base := startAgent(t)
	ctx := t.Context()
	m := mcpSession(t, base)
	a, err := a2aclient.Dial(ctx, base, client(testKey))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	key := func() string { n++; return "release-test-key-" + strconv.Itoa(100000+n) }
	for name, tr := range map[string]buyer.Transport{"mcp": m, "a2a": a} {
		for _, sp := range []*registry.Spec{adcp.Spec(), adcp31.Spec(), adcp32.Spec()} {
			c, err := buyer.New(sp, tr, buyer.WithPolling(buyer.Polling{Interval: 50e6, MaxInterval: 500e6}))
			if err != nil {
				t.Fatal(err)
			}
			pin := c.Release()
			rels, err := c.Releases(ctx)
			if err != nil || !slices.Equal(rels, []string{"3.0", "3.1", "3.2-beta.5"}) {
				t.Errorf("%s %s: supported_versions %v %v", name, pin, rels, err)
			}
			invoke := func(tool, args string, opts ...buyer.CallOption) *buyer.Reply {
				t.Helper()
				r, err := c.Invoke(ctx, tool, json.RawMessage(args), opts...)
				if err != nil {
					t.Errorf("%s %s %s: %v", name, pin, tool, err)
					return nil
				}
				if r.Release != pin {
					t.Errorf("%s %s %s: answered in %q", name, pin, tool, r.Release)
				}
				return r
			}
			invoke("get_adcp_capabilities", `{}`)
			invoke("list_creative_formats", `{}`)
			invoke("sync_accounts", `{"idempotency_key":"`+key()+`","accounts":[{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example","billing":"operator"}]}`)
			invoke("list_accounts", `{}`)
			invoke("get_products", `{"buying_mode":"brief","brief":"Premium video and display",`+acme+`}`)
			buy := invoke("create_media_buy", buyArgs(key(), "", ""))
			async := invoke("create_media_buy", buyArgs(key(), "async-"+pin, ""), buyer.WaitForCompletion())
			if async != nil && async.Status != task.Completed {
				t.Errorf("%s %s: the async buy ended %s", name, pin, async.Status)
			}
			if buy == nil {
				continue
			}
			id, _ := wire.Lenient(buy.Data).Get("media_buy_id").AsString()
			pkg, _ := wire.Lenient(buy.Data).Get("packages").Index(0).Get("package_id").AsString()
			invoke("get_media_buys", `{`+acme+`,"media_buy_ids":["`+id+`"]}`)
			invoke("sync_creatives", `{"idempotency_key":"`+key()+`",`+acme+`,"creatives":[{"creative_id":"cr_`+pin+`","name":"Banner",`+
				`"format_id":{"agent_url":"https://creative.adcontextprotocol.org","id":"display_300x250"},`+
				`"assets":{"image":{"asset_type":"image","url":"https://cdn.example/b.png","width":300,"height":250}}}],`+
				`"assignments":[{"creative_id":"cr_`+pin+`","package_id":"`+pkg+`"}]}`)
			invoke("update_media_buy", `{"idempotency_key":"`+key()+`",`+acme+`,"media_buy_id":"`+id+`","paused":true}`)
			invoke("get_media_buy_delivery", `{`+acme+`,"media_buy_ids":["`+id+`"]}`)
			invoke("list_creatives", `{`+acme+`}`)
		}

		// What the seller does not serve.
		c, err := buyer.New(adcp31.Spec(), tr)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range []string{`{"adcp_version":"4.0","adcp_major_version":4}`, `{"adcp_version":"3.1.19"}`} {
			_, err := c.Invoke(ctx, "list_accounts", json.RawMessage(args))
			var ve *buyer.VersionError
			if !errors.As(err, &ve) || ve.Err == nil || !slices.Equal(ve.Supported, []string{"3.0", "3.1", "3.2-beta.5"}) {
				t.Errorf("%s %s: %v", name, args, err)
			}
		}
	}
}
