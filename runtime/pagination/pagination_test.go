package pagination_test

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/pagination"
)

func ids(n int) []string {
	var out []string
	for i := range n {
		out = append(out, "c"+strconv.Itoa(i+1))
	}
	return out
}

func self(s string) string { return s }

// walk follows the cursors from the first page and returns the pages.
func walk(t *testing.T, items []string, max int64, query string) [][]string {
	t.Helper()
	var pages [][]string
	r := pagination.PageRequest{MaxResults: max, Query: query}
	for range 1000 {
		p, err := pagination.Slice(items, self, r)
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != len(items) {
			t.Fatalf("total %d, want %d", p.Total, len(items))
		}
		if p.HasMore != (p.Cursor != "") {
			t.Fatalf("has_more %v with cursor %q", p.HasMore, p.Cursor)
		}
		if resp := p.Response(); resp.HasMore != p.HasMore || (resp.Cursor == nil) == p.HasMore || resp.TotalCount != int64(len(items)) {
			t.Fatalf("response %+v of page %+v", resp, p)
		}
		pages = append(pages, p.Items)
		if !p.HasMore {
			return pages
		}
		r.Cursor = p.Cursor
	}
	t.Fatal("no last page")
	return nil
}

// What pagination_integrity checks: three items by two, then the rest,
// totals stable, no cursor on the last page; and every item exactly once
// for any page size.
func TestWalk(t *testing.T) {
	for _, c := range []struct {
		n     int
		max   int64
		pages []int
	}{
		{3, 2, []int{2, 1}},
		{2, 1, []int{1, 1}},
		{0, 0, []int{0}},
		{50, 0, []int{50}},
		{51, 0, []int{50, 1}},
		{250, 500, []int{100, 100, 50}},
		{4, 2, []int{2, 2}},
	} {
		items := ids(c.n)
		pages := walk(t, items, c.max, "q")
		var sizes []int
		var all []string
		for _, p := range pages {
			sizes = append(sizes, len(p))
			all = append(all, p...)
		}
		if !slices.Equal(sizes, c.pages) || !slices.Equal(all, items) {
			t.Errorf("%d items by %d: pages %v, items %v", c.n, c.max, sizes, all)
		}
	}
}

// Items added or removed between pages neither repeat nor skip the others.
func TestKeysetAcrossChanges(t *testing.T) {
	items := ids(6)
	p, _ := pagination.Slice(items, self, pagination.PageRequest{MaxResults: 3})
	// c1 removed and c0 added before the cursor's item: the next page still
	// starts after c3.
	changed := append([]string{"c0"}, items[1:]...)
	next, err := pagination.Slice(changed, self, pagination.PageRequest{MaxResults: 3, Cursor: p.Cursor})
	if err != nil || !slices.Equal(next.Items, []string{"c4", "c5", "c6"}) || next.HasMore {
		t.Errorf("after insert: %+v %v", next, err)
	}
	// The cursor's item itself removed: its old position is used.
	gone := slices.Delete(slices.Clone(items), 2, 3) // c3
	next, err = pagination.Slice(gone, self, pagination.PageRequest{MaxResults: 3, Cursor: p.Cursor})
	if err != nil || !slices.Equal(next.Items, []string{"c5", "c6"}) {
		t.Errorf("after the cursor's item left: %+v %v", next, err)
	}
}

func TestBadCursors(t *testing.T) {
	items := ids(5)
	p, _ := pagination.Slice(items, self, pagination.PageRequest{MaxResults: 2, Query: "formats=display"})
	for name, r := range map[string]pagination.PageRequest{
		"another query": {Cursor: p.Cursor, Query: "formats=video"},
		"not ours":      {Cursor: "abc", Query: "formats=display"},
		"altered":       {Cursor: "p1.0." + p.Cursor[5:], Query: "formats=display"},
		"negative":      {Cursor: "p1.-1.YzI.0000000000000000", Query: "formats=display"},
	} {
		_, err := pagination.Slice(items, self, r)
		var e *adcperr.Error
		if !errors.As(err, &e) || e.Code != "INVALID_REQUEST" || e.Field != "pagination.cursor" {
			t.Errorf("%s: %v", name, err)
		}
	}
}
