package pagination_test

import (
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/pagination"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// The pagination objects a walk produces are valid in every version's
// core/pagination-response.json, and its defaults are the request
// schema's.
func TestVersionsSchemas(t *testing.T) {
	for _, v := range specseller.Versions {
		tree, _ := specseller.Open(t, v.Version)
		val, err := validate.New(tree, validate.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := pagination.PageRequest{MaxResults: 2}
		for {
			p, err := pagination.Slice(ids(3), self, r)
			if err != nil {
				t.Fatal(err)
			}
			resp := p.Response()
			obj := map[string]any{"has_more": resp.HasMore, "total_count": resp.TotalCount}
			if resp.Cursor != nil {
				obj["cursor"] = *resp.Cursor
			}
			data, _ := json.Marshal(obj)
			if issues, err := val.Validate("core/pagination-response.json", data); err != nil || len(issues) > 0 {
				t.Errorf("%s: %s: %v %v", v.Version, data, issues, err)
			}
			if !p.HasMore {
				break
			}
			r.Cursor = p.Cursor
		}
		for _, c := range []struct {
			max   string
			valid bool
		}{{"1", true}, {"100", true}, {"0", false}, {"101", false}} {
			issues, err := val.Validate("core/pagination-request.json", []byte(`{"max_results":`+c.max+`}`))
			if err != nil || (len(issues) == 0) != c.valid {
				t.Errorf("%s: max_results %s valid=%v: %v %v (MaxMaxResults %d)", v.Version, c.max, c.valid, issues, err, pagination.MaxMaxResults)
			}
		}
	}
}
