package pagination_test

import (
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/pagination"
)

// A list tool serves its items a page at a time; the buyer follows the
// cursors. In a handler, Query is pagination.QueryOf(seller.CallFrom(ctx))
// and the request's pagination members fill the PageRequest.
func ExampleSlice() {
	creatives := []string{"cr_banner", "cr_video", "cr_native"}
	r := pagination.PageRequest{MaxResults: 2, Query: "status=approved"}
	for {
		page, err := pagination.Slice(creatives, func(id string) string { return id }, r)
		if err != nil {
			panic(err)
		}
		resp := page.Response()
		fmt.Println(page.Items, "has_more:", resp.HasMore, "cursor sent:", resp.Cursor != nil, "total_count:", resp.TotalCount)
		if !page.HasMore {
			break
		}
		r.Cursor = page.Cursor
	}
	// Output:
	// [cr_banner cr_video] has_more: true cursor sent: true total_count: 3
	// [cr_native] has_more: false cursor sent: false total_count: 3
}
