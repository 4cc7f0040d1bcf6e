// Package pagination is AdCP's cursor pagination for a seller's list
// tools (list_creatives, list_creative_formats, list_accounts,
// get_media_buys, ...): the request's pagination object
// (core/pagination-request.json: max_results, default 50, at most 100; an
// opaque cursor) turned into one page of the seller's list, and the page
// into the response's pagination object (core/pagination-response.json:
// has_more, cursor only when there is more, total_count), the same in
// every AdCP 3 version.
//
// What the pagination_integrity storyboards check, it guarantees: a page
// holds at most max_results items; has_more is true exactly when items
// follow, and then a cursor is given; the last page has none; total_count
// is the size of the whole result and stays the same across pages; and
// walking the cursors visits every item once. Cursors are keyset cursors:
// each names the last item of its page by key, so items added or removed
// between two calls neither repeat nor skip the others. A cursor is bound
// to its query (PageRequest.Query): one replayed against other filters, or
// altered, is refused with INVALID_REQUEST on pagination.cursor.
//
// ExampleSlice pages a list tool's items this way.
package pagination

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// DefaultMaxResults is max_results when the request gives none, and
// MaxMaxResults the largest page (core/pagination-request.json).
const (
	DefaultMaxResults = 50
	MaxMaxResults     = 100
)

// PageRequest is the pagination a list call asks for.
type PageRequest struct {
	// MaxResults is the request's max_results; 0 means DefaultMaxResults,
	// and it is capped at MaxMaxResults.
	MaxResults int64
	// Cursor is the request's cursor, "" for the first page.
	Cursor string
	// Query identifies the filters the list answers (QueryOf): a cursor
	// is only valid for the query it was issued for.
	Query string
}

// Page is one page of a list.
type Page[T any] struct {
	// Items are the page's items, in the list's order.
	Items []T
	// HasMore reports items after this page.
	HasMore bool
	// Cursor fetches the next page; "" on the last one.
	Cursor string
	// Total is the number of items in the whole list.
	Total int
}

// PageResponse is the response's pagination object.
type PageResponse struct {
	HasMore bool
	// Cursor is nil on the last page (the schema's "only present when
	// has_more is true").
	Cursor *string
	// TotalCount is the whole list's size.
	TotalCount int64
}

// Response is the page's pagination object.
func (p Page[T]) Response() PageResponse {
	r := PageResponse{HasMore: p.HasMore, TotalCount: int64(p.Total)}
	if p.HasMore {
		c := p.Cursor
		r.Cursor = &c
	}
	return r
}

// Slice returns the page of items (the whole list, in the order to serve
// it) that r asks for. key names each item uniquely (an id); the cursor
// carries the last key of a page, so the next page starts after that item
// wherever it now stands, or at its old position when it is gone. A cursor
// this package did not issue, or issued for another query, is an
// INVALID_REQUEST *adcperr.Error on pagination.cursor.
func Slice[T any](items []T, key func(T) string, r PageRequest) (Page[T], error) {
	size := int(r.MaxResults)
	if size <= 0 {
		size = DefaultMaxResults
	}
	size = min(size, MaxMaxResults)
	start := 0
	if r.Cursor != "" {
		last, offset, err := parse(r.Cursor, r.Query)
		if err != nil {
			return Page[T]{}, err
		}
		start = min(offset, len(items))
		for i, it := range items {
			if key(it) == last {
				start = i + 1
				break
			}
		}
	}
	end := min(start+size, len(items))
	p := Page[T]{Items: items[start:end:end], HasMore: end < len(items), Total: len(items)}
	if p.HasMore {
		p.Cursor = issue(key(items[end-1]), end, r.Query)
	}
	return p, nil
}

// The cursor: "p1.<offset>.<base64url key>.<query fingerprint>". It is
// opaque to buyers; the fingerprint binds it to the query and detects
// tampering with the rest.
const cursorPrefix = "p1"

func issue(lastKey string, offset int, query string) string {
	k := base64.RawURLEncoding.EncodeToString([]byte(lastKey))
	body := cursorPrefix + "." + strconv.Itoa(offset) + "." + k
	return body + "." + fingerprint(body, query)
}

func parse(cursor, query string) (lastKey string, offset int, err error) {
	parts := strings.Split(cursor, ".")
	if len(parts) != 4 || parts[0] != cursorPrefix {
		return "", 0, badCursor("is not a cursor this agent issued")
	}
	body := strings.Join(parts[:3], ".")
	if parts[3] != fingerprint(body, query) {
		return "", 0, badCursor("was issued for another query, or altered")
	}
	offset, err = strconv.Atoi(parts[1])
	k, kerr := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || kerr != nil || offset < 0 {
		return "", 0, badCursor("is not a cursor this agent issued")
	}
	return string(k), offset, nil
}

func fingerprint(body, query string) string {
	sum := sha256.Sum256([]byte(body + "\x00" + query))
	return hex.EncodeToString(sum[:8])
}

// badCursor refuses a cursor (the server adds the spec's recovery class).
func badCursor(why string) *adcperr.Error {
	return &adcperr.Error{Code: "INVALID_REQUEST", Message: "pagination.cursor " + why + "; start again without a cursor",
		Field: "pagination.cursor"}
}

// QueryOf identifies the query a list call makes: its arguments without
// pagination, context, ext, idempotency_key and adcp_major_version, in
// canonical form, hashed. nil (no call) is the empty query.
func QueryOf(c *seller.Call) string {
	if c == nil {
		return ""
	}
	canon, err := c.Canonical("pagination", "context", "ext", "idempotency_key", "adcp_major_version")
	if err != nil {
		return fmt.Sprintf("unreadable:%d", len(c.Arguments))
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:])
}
