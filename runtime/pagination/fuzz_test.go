package pagination_test

import (
	"errors"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/pagination"
)

// FuzzCursor: any cursor a buyer sends gives a page within the list or
// INVALID_REQUEST, never a panic; a page never repeats the item the cursor
// names.
func FuzzCursor(f *testing.F) {
	items := ids(7)
	p, _ := pagination.Slice(items, self, pagination.PageRequest{MaxResults: 3, Query: "q"})
	for _, s := range []string{p.Cursor, "", "p1", "p1.9999999999999999999.eA.0", "p1.3.!!.x", "p1..." + p.Cursor} {
		f.Add(s, int64(3))
	}
	f.Fuzz(func(t *testing.T, cursor string, max int64) {
		page, err := pagination.Slice(items, self, pagination.PageRequest{MaxResults: max, Cursor: cursor, Query: "q"})
		var e *adcperr.Error
		if err != nil {
			if !errors.As(err, &e) || e.Field != "pagination.cursor" {
				t.Fatalf("error %v", err)
			}
			return
		}
		if len(page.Items) > pagination.MaxMaxResults || page.Total != len(items) || page.HasMore != (page.Cursor != "") {
			t.Fatalf("page %+v", page)
		}
	})
}
