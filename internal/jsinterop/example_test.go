package jsinterop_test

// The JavaScript SDK's buyer against adcpgen's example seller.

import (
	"bytes"
	"errors"
	"testing"

	"github.com/adcpgen/adcpgen/internal/jsinterop"
	"github.com/adcpgen/adcpgen/internal/roundtrip"
	"github.com/adcpgen/adcpgen/internal/testspec"
)

func TestBuyerAgainstExampleSeller(t *testing.T) {
	root, err := roundtrip.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	buyAgainstExample(t, root)
}

// buyAgainstExample starts root/examples/seller and runs buyer.mjs against
// it over MCP and A2A: capabilities (AdCP 3 on both, so the card lists
// get_adcp_capabilities), get_products, and a submitted create_media_buy
// followed through the tasks/get tool to the buy.
func buyAgainstExample(t *testing.T, root string) {
	jsinterop.Require(t)
	specDir := testspec.Dir(t)
	var log jsinterop.Log
	build, err := jsinterop.BuildExampleSeller(t.Context(), root, specDir)
	if errors.Is(err, jsinterop.ErrNoExampleSeller) {
		t.Skip("examples/seller is not in this tree yet (issue 12)")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer build.Remove()
	seller, err := build.Start(t.Context(), "sk_js_buyer_key_0123", &log)
	if err != nil {
		t.Fatal(err)
	}
	defer seller.Close()
	for _, tc := range []struct{ protocol, agent string }{
		{"mcp", seller.BaseURL + "/mcp"},
		{"a2a", seller.BaseURL},
	} {
		t.Run(tc.protocol, func(t *testing.T) {
			s := jsinterop.Buy(t, jsinterop.BuyerOptions{Agent: tc.agent, Protocol: tc.protocol, Auth: seller.APIKey})
			if s.Error != "" {
				t.Fatalf("buyer.mjs: %s", s.Error)
			}
			if c := s.Find("capabilities"); c == nil || !bytes.Contains(c.Data, []byte(`"version":"v3"`)) {
				t.Errorf("capabilities: %+v", c)
			}
			if p := s.Find("get_products"); p == nil || !p.Success || !bytes.Contains(p.Data, []byte(`"product_id"`)) {
				t.Errorf("get_products: %+v", p)
			}
			c := s.Find("create_media_buy")
			if c == nil || c.Status != "submitted" || c.TaskID == "" || c.Completed == nil ||
				c.Completed.Status != "completed" || !bytes.Contains(c.Completed.Data, []byte(`"media_buy_id"`)) {
				t.Errorf("create_media_buy: %+v, completed %+v", c, c.Completed)
			}
		})
	}
	if t.Failed() {
		t.Logf("examples/seller output:\n%s", log.String())
	}
}
