//go:build adcpgen_bench

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/adcpgen/adcpgen/internal/bench/gen/adcp"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The answers the sellers send, by name: the 35.7 KB get_products fixture
// of 3.0.26 (12 products), one product of it with its forecast,
// placements, creative policy and ext cut (1.6 KB), and its
// products ten times over (360 KB, ids made unique).
var sizes = []string{"1.6KB", "36KB", "360KB"}

// answers reads the fixture under specDir/../bench and returns the
// get_products response of each size, decoded strictly.
func answers(specDir string) (map[string]*adcp.GetProductsResponse, error) {
	path := filepath.Join(specDir, "..", "bench", "get-products-response-3.0.26.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the get_products fixture: %w", err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var products []map[string]json.RawMessage
	if err := json.Unmarshal(doc["products"], &products); err != nil {
		return nil, fmt.Errorf("%s: /products: %w", path, err)
	}
	with := func(ps []map[string]json.RawMessage) ([]byte, error) {
		d := map[string]json.RawMessage{}
		for k, v := range doc {
			d[k] = v
		}
		raw, err := json.Marshal(ps)
		if err != nil {
			return nil, err
		}
		d["products"] = raw
		if len(ps) == 1 {
			delete(d, "proposals")
		}
		return json.Marshal(d)
	}
	one := map[string]json.RawMessage{}
	for k, v := range products[0] {
		switch k {
		case "forecast", "placements", "creative_policy", "ext":
		default:
			one[k] = v
		}
	}
	var many []map[string]json.RawMessage
	for i := range 10 {
		for _, p := range products {
			var id string
			if err := json.Unmarshal(p["product_id"], &id); err != nil {
				return nil, fmt.Errorf("%s: product_id: %w", path, err)
			}
			cp := map[string]json.RawMessage{}
			for k, v := range p {
				cp[k] = v
			}
			cp["product_id"], _ = json.Marshal(fmt.Sprintf("%s-%d", id, i))
			many = append(many, cp)
		}
	}
	small, err := with([]map[string]json.RawMessage{one})
	if err != nil {
		return nil, err
	}
	large, err := with(many)
	if err != nil {
		return nil, err
	}
	out := map[string]*adcp.GetProductsResponse{}
	for name, raw := range map[string][]byte{"1.6KB": small, "36KB": data, "360KB": large} {
		var r adcp.GetProductsResponse
		if err := wire.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("the %s answer: %w", name, err)
		}
		out[name] = &r
	}
	return out, nil
}
