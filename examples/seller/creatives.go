package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/lifecycle"
	"github.com/adcpgen/adcpgen/runtime/pagination"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The creative library. sync_creatives upserts a buyer's creatives in an
// account's library and may assign them to packages of its buys (a buy
// waiting for creatives then moves on); this seller reviews at once, so a
// synced creative is approved. list_creatives filters and pages the
// library (archived creatives only when asked for by status); the
// library outlives the buys its creatives were assigned to. In a sandbox,
// creatives the compliance runner seeds (seed_creative) are in every
// account's library.

// creative is one creative of a library.
type creative struct {
	id, principal, account string // account: the account key ("" for sandbox fixtures)
	name                   string
	format                 adcp.FormatID
	status                 string
	tags                   []string
	created, updated       time.Time
	assigned               []string // package ids
	// assets are the creative's top-level assets as given (the library
	// filters on their asset_type, 3.2's asset_types), optionRef its
	// canonical format_option_ref: 3.2 members list_creatives answers at
	// the 3.2 edge only (libraryEdge), nil when none was given.
	assets, optionRef json.RawMessage
	// localization is its resolved 3.2 localization (readback), nil for
	// an unlocalized creative.
	localization json.RawMessage
}

// library holds the creatives, in the order they were first synced.
type library struct {
	mu    sync.Mutex
	items []*creative
}

// find returns principal's creative id in account ("" is any account, the
// most recent).
func (l *library) find(principal, account, id string) *creative {
	for _, c := range slices.Backward(l.items) {
		if c.principal == principal && c.id == id && (account == "" || c.account == account) {
			return c
		}
	}
	return nil
}

// visible reports whether account (a key; "" when none is named) sees c.
func (c *creative) visible(principal, account string) bool {
	return c.principal == principal && (account == "" || c.account == "" || c.account == account)
}

// syncCreatives upserts the creatives and makes the assignments.
func (s *sales) syncCreatives(ctx context.Context, req *adcp.SyncCreativesRequest) (*adcp.SyncCreativesResult, error) {
	p, _ := seller.PrincipalFrom(ctx)
	account, _ := s.accounts.key(p.ID, req.Account)
	dry := req.DryRun != nil && *req.DryRun
	now := s.now()
	out := adcp.SyncCreativesSuccess{Creatives: []adcp.SyncCreativesSuccessCreative{}, DryRun: req.DryRun}
	results := map[string]*adcp.SyncCreativesSuccessCreative{}
	// Creatives of the seller's native format are checked against its
	// constraints first (native.go).
	lenient := req.ValidationMode != nil && *req.ValidationMode == adcp.ValidationModeLenient
	invalid := map[int]*adcperr.Error{}
	for i, in := range req.Creatives {
		if in.FormatID.ID != nativeFormat && in.FormatID.ID != "canonical_"+nativeFormat {
			continue
		}
		assets, err := json.Marshal(in.Assets)
		if err != nil {
			return nil, err
		}
		if err := nativeViolation(i, wire.Lenient(assets)); err != nil {
			if !lenient {
				return nil, err
			}
			invalid[i] = err
		}
	}
	// Each creative as sent (3.1 and later): its assets and 3.2's
	// localization, kept as given.
	var raws, sent []wire.Lenient
	if c := seller.CallFrom(ctx); c != nil {
		wire.Lenient(c.Member("creatives")).Elems(func(e wire.Lenient) bool { sent = append(sent, e); return true })
		if laterRelease(ctx) {
			raws = sent
		}
	}
	// Hosted tags are read against the registry policies the sync is held
	// to before the library is locked (tagscan.go).
	rejected, unjudged := map[int][]adcp.Error{}, map[int]bool{}
	if enforced := s.policies.enforcedFor(p.ID, account); len(enforced) > 0 && s.tags != nil {
		for i := range sent {
			errs, judged := s.tags.check(ctx, enforced, sent[i], fmt.Sprintf("creatives[%d]", i))
			rejected[i], unjudged[i] = errs, !judged
		}
	}
	s.library.mu.Lock()
	for i, in := range req.Creatives {
		if errs := rejected[i]; len(errs) > 0 {
			out.Creatives = append(out.Creatives, adcp.SyncCreativesSuccessCreative{CreativeID: in.CreativeID, Action: adcp.CreativeActionFailed, Errors: errs})
			continue
		}
		if e := invalid[i]; e != nil {
			out.Creatives = append(out.Creatives, adcp.SyncCreativesSuccessCreative{CreativeID: in.CreativeID, Action: adcp.CreativeActionFailed,
				Errors: []adcp.Error{{Code: e.Code, Message: e.Message, Field: &e.Field}}})
			continue
		}
		if i < len(sent) {
			// The provenance the products it was built for require
			// (provenance.go): refused as sent, nothing of it applied.
			if e := s.policies.check(p.ID, account, sent[i].Raw(), fmt.Sprintf("creatives[%d]", i)); e != nil {
				out.Creatives = append(out.Creatives, adcp.SyncCreativesSuccessCreative{CreativeID: in.CreativeID, Action: adcp.CreativeActionFailed, Errors: []adcp.Error{*e}})
				continue
			}
		}
		status := lifecycle.CreativeApproved
		if unjudged[i] {
			status = lifecycle.CreativePendingReview // a tag it could not read
		}
		res := adcp.SyncCreativesSuccessCreative{CreativeID: in.CreativeID, Action: adcp.CreativeActionCreated, Status: ptr(adcp.CreativeStatus(status))}
		assets, _ := json.Marshal(in.Assets)
		var localization json.RawMessage
		if i < len(raws) {
			if a := raws[i].Get("assets"); a.IsObject() {
				assets = a.Raw()
			}
			if l := raws[i].Get("localization"); l.IsObject() {
				rb, bad := readback(l, assets, i)
				if bad != nil {
					// The whole creative fails, nothing of it applied.
					res.Action, res.Status, res.Errors = adcp.CreativeActionFailed, nil, []adcp.Error{*bad}
					out.Creatives = append(out.Creatives, res)
					continue
				}
				localization = rb
				res.AdditionalProperties = map[string]json.RawMessage{"localization": rb}
			}
		}
		c := s.library.find(p.ID, account, in.CreativeID)
		if c != nil && c.account == account {
			res.Action = adcp.CreativeActionUpdated
		} else {
			c = &creative{id: in.CreativeID, principal: p.ID, account: account, created: now}
			if !dry {
				s.library.items = append(s.library.items, c)
			}
		}
		if !dry {
			// A resubmitted creative is reviewed again (approved here at
			// once); an archived one synced again is unarchived.
			c.name, c.format, c.tags, c.status, c.updated = in.Name, in.FormatID, in.Tags, status, now
			c.assets, c.localization = assets, localization
		}
		out.Creatives = append(out.Creatives, res)
		results[in.CreativeID] = &out.Creatives[len(out.Creatives)-1]
	}
	s.library.mu.Unlock()
	if len(req.Assignments) > 0 && !dry {
		if err := s.assign(ctx, p.ID, req.Assignments, results, now); err != nil {
			return nil, err
		}
	}
	r := adcp.NewSyncCreativesResponseSuccess(out)
	return &adcp.SyncCreativesResult{Message: fmt.Sprintf("%d creatives synced.", len(out.Creatives)), Response: &r}, nil
}

// assign attaches creatives to packages of the principal's buys,
// reporting each in results.
func (s *sales) assign(ctx context.Context, principal string, as []adcp.SyncCreativesRequestAssignment, results map[string]*adcp.SyncCreativesSuccessCreative, now time.Time) error {
	for _, a := range as {
		res := results[a.CreativeID]
		// Package ids are unique, as buy ids: find the buy that has it.
		buyID := ""
		if err := s.buys.each(ctx, principal, func(b *buy) {
			if buyID == "" && b.pkgByID(a.PackageID) != nil {
				buyID = b.id
			}
		}); err != nil {
			return err
		}
		why := "PACKAGE_NOT_FOUND"
		err := errNoBuy
		if buyID != "" {
			err = s.buys.update(ctx, principal, buyID, func(b *buy) error {
				pk := b.pkgByID(a.PackageID)
				if pk == nil {
					return errNoBuy
				}
				if lifecycle.MediaBuyFinal(b.status) {
					why = "INVALID_STATE: the media buy is " + b.status
					return errNoBuy
				}
				if !slices.ContainsFunc(pk.creatives, func(c adcp.CreativeAssignment) bool { return c.CreativeID == a.CreativeID }) {
					pk.creatives = append(pk.creatives, adcp.CreativeAssignment{CreativeID: a.CreativeID, Weight: a.Weight, PlacementIDs: a.PlacementIDs})
				}
				b.settle(now)
				b.updated = now
				return nil
			})
		}
		switch {
		case err == nil:
			if res != nil {
				res.AssignedTo = append(res.AssignedTo, a.PackageID)
			}
		case errors.Is(err, errNoBuy):
			if res != nil {
				if res.AssignmentErrors == nil {
					res.AssignmentErrors = &adcp.SyncCreativesSuccessCreativeAssignmentErrors{Matching: map[string]string{}}
				}
				res.AssignmentErrors.Matching[a.PackageID] = why
			}
		default:
			return err
		}
	}
	return nil
}

// listCreatives answers the library the account sees, filtered and paged.
func (s *sales) listCreatives(ctx context.Context, req *adcp.ListCreativesRequest) (*adcp.ListCreativesResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	account, _ := s.accounts.key(p.ID, req.Account)
	f := req.Filters
	if f == nil {
		f = &adcp.CreativeFilters{}
	}
	var applied []string
	for _, n := range []struct {
		name string
		on   bool
	}{{"creative_ids", len(f.CreativeIDs) > 0}, {"statuses", len(f.Statuses) > 0}, {"format_ids", len(f.FormatIDs) > 0},
		{"name_contains", f.NameContains != nil}, {"tags", len(f.Tags) > 0}, {"asset_types", f.AdditionalProperties["asset_types"] != nil},
		{"media_buy_ids", len(f.MediaBuyIDs) > 0}} {
		if n.on {
			applied = append(applied, n.name)
		}
	}
	// media_buy_ids: the creatives assigned to a package of those buys.
	var inBuys func(*creative) bool
	if len(f.MediaBuyIDs) > 0 {
		ids, pkgs := map[string]bool{}, map[string]bool{}
		if err := s.listed(ctx, p.ID, account, f.MediaBuyIDs, func(b *buy) {
			for _, pk := range b.packages {
				pkgs[pk.id] = true
				for _, a := range pk.creatives {
					ids[a.CreativeID] = true
				}
			}
		}); err != nil {
			return nil, err
		}
		inBuys = func(c *creative) bool {
			return ids[c.id] || slices.ContainsFunc(c.assigned, func(pk string) bool { return pkgs[pk] })
		}
	}
	s.library.mu.Lock()
	var matched []*creative
	for _, c := range s.library.items {
		if c.visible(p.ID, account) && c.matches(f) && (inBuys == nil || inBuys(c)) {
			matched = append(matched, c)
		}
	}
	sortCreatives(matched, req.Sort)
	list := make([]adcp.ListCreativesResponseCreative, len(matched))
	for i, c := range matched {
		list[i] = c.wire()
	}
	s.library.mu.Unlock()
	page, err := pagination.Slice(list, func(c adcp.ListCreativesResponseCreative) string { return c.CreativeID }, pageRequest(ctx, req.Pagination))
	if err != nil {
		return nil, err
	}
	resp := &adcp.ListCreativesResponse{
		QuerySummary: adcp.ListCreativesResponseQuerySummary{TotalMatching: int64(page.Total), Returned: int64(len(page.Items)), FiltersApplied: applied},
		Pagination:   *pageResponse(page.Response()),
		Creatives:    page.Items,
	}
	if resp.Creatives == nil {
		resp.Creatives = []adcp.ListCreativesResponseCreative{}
	}
	return resp, nil
}

// sortCreatives orders creatives (in the order first synced) as sort asks:
// by default, the schema's, newest first (created_date, desc); equal keys
// keep the sync order, reversed when descending.
func sortCreatives(cs []*creative, sort *adcp.ListCreativesRequestSort) {
	field, desc := adcp.CreativeSortFieldCreatedDate, true
	if sort != nil {
		if sort.Field != nil {
			field = *sort.Field
		}
		if sort.Direction != nil {
			desc = *sort.Direction == adcp.SortDirectionDesc
		}
	}
	cmp := func(a, b *creative) int {
		switch field {
		case adcp.CreativeSortFieldUpdatedDate:
			return a.updated.Compare(b.updated)
		case adcp.CreativeSortFieldName:
			return strings.Compare(a.name, b.name)
		case adcp.CreativeSortFieldStatus:
			return strings.Compare(a.status, b.status)
		case adcp.CreativeSortFieldAssignmentCount:
			return len(a.assigned) - len(b.assigned)
		}
		return a.created.Compare(b.created)
	}
	slices.SortStableFunc(cs, cmp)
	if desc {
		slices.Reverse(cs)
	}
}

// matches applies the filters this seller supports; archived creatives
// are left out unless a status filter asks for them.
func (c *creative) matches(f *adcp.CreativeFilters) bool {
	if len(f.CreativeIDs) > 0 && !slices.Contains(f.CreativeIDs, c.id) {
		return false
	}
	if len(f.Statuses) > 0 {
		if !slices.Contains(f.Statuses, adcp.CreativeStatus(c.status)) {
			return false
		}
	} else if c.status == lifecycle.CreativeArchived {
		return false
	}
	if len(f.FormatIDs) > 0 && !slices.ContainsFunc(f.FormatIDs, func(id adcp.FormatID) bool { return id.ID == c.format.ID && id.AgentURL == c.format.AgentURL }) {
		return false
	}
	if f.NameContains != nil && !strings.Contains(strings.ToLower(c.name), strings.ToLower(*f.NameContains)) {
		return false
	}
	for _, t := range f.Tags {
		if !slices.Contains(c.tags, t) {
			return false
		}
	}
	if raw, ok := f.AdditionalProperties["asset_types"]; ok {
		var types []string
		if json.Unmarshal(raw, &types) == nil && len(types) > 0 && !c.hasAssetType(types) {
			return false
		}
	}
	return true
}

// hasAssetType reports whether an object directly assigned to a top-level
// assets slot has an asset_type among types (3.2's asset_types: OR within
// the field; array slots and nested fields such as cards[].media are not
// looked into).
func (c *creative) hasAssetType(types []string) bool {
	var slots map[string]json.RawMessage
	_ = json.Unmarshal(c.assets, &slots)
	for _, v := range slots {
		var a struct {
			Type string `json:"asset_type"`
		}
		if json.Unmarshal(v, &a) == nil && slices.Contains(types, a.Type) {
			return true
		}
	}
	return false
}

// wire is the creative as list_creatives shows it.
func (c *creative) wire() adcp.ListCreativesResponseCreative {
	return adcp.ListCreativesResponseCreative{CreativeID: c.id, Name: c.name, FormatID: c.format, Status: adcp.CreativeStatus(c.status),
		CreatedDate: dateTime(c.created), UpdatedDate: dateTime(c.updated), Tags: c.tags}
}

// forceCreative moves the principal's creative to status
// (force_creative_status).
func (s *sales) forceCreative(principal, id, status string) (prev string, err error) {
	s.library.mu.Lock()
	defer s.library.mu.Unlock()
	c := s.library.find(principal, "", id)
	if c == nil {
		return "", errNotFound
	}
	if err := lifecycle.CreativeMove(c.status, status); err != nil {
		return c.status, err
	}
	prev, c.status, c.updated = c.status, status, s.now()
	return prev, nil
}

// seedCreative adds a sandbox creative from the runner's fixture
// (seed_creative), in every account's library.
func (s *sales) seedCreative(principal, id string, fixture wire.Lenient) error {
	status, ok := fixture.Get("status").AsString()
	if !ok {
		status = lifecycle.CreativeApproved
	}
	if !slices.Contains(lifecycle.CreativeStatuses, status) {
		return fmt.Errorf("status %q is not a creative status", status)
	}
	// A fixture names its format (format_id) or, 3.2's canonical
	// identity, its kind (format_kind, held as the named format of that
	// kind) with an optional format_option_ref; its assets are top-level
	// or in its manifest.
	manifest := fixture.Get("manifest")
	either := func(name string) wire.Lenient {
		if v := fixture.Get(name); v.Present() {
			return v
		}
		return manifest.Get(name)
	}
	format := adcp.FormatID{AgentURL: defaultFormatAgent, ID: "display_static"}
	if kind, ok := either("format_kind").AsString(); ok && !either("format_id").Present() {
		format.ID = "canonical_" + kind
	}
	if f := either("format_id"); f.IsObject() {
		if v, ok := f.Get("id").AsString(); ok {
			format.ID = v
		}
		if v, ok := f.Get("agent_url").AsString(); ok {
			format.AgentURL = v
		}
	}
	var assets, optionRef json.RawMessage
	if v := either("assets"); v.IsObject() {
		assets = v.Raw()
	}
	if v := either("format_option_ref"); v.IsObject() {
		optionRef = v.Raw()
	}
	name, _ := fixture.Get("name").AsString()
	if name == "" {
		name = id
	}
	now := s.now()
	s.library.mu.Lock()
	defer s.library.mu.Unlock()
	if c := s.library.find(principal, "", id); c != nil && c.account == "" {
		c.status, c.format, c.name, c.updated, c.assets, c.optionRef = status, format, name, now, assets, optionRef
		return nil
	}
	s.library.items = append(s.library.items, &creative{id: id, principal: principal, name: name, format: format, status: status, created: now, updated: now,
		assets: assets, optionRef: optionRef})
	return nil
}

// previews are the rendered previews this seller serves at
// /preview/{id}, for an hour.
type previews struct {
	mu    sync.Mutex
	pages map[string]preview
}

type preview struct {
	html    string
	expires time.Time
}

// previewCreative renders the manifest (or the library's creative) as a
// preview page this seller serves for an hour.
func (s *sales) previewCreative(ctx context.Context, req *adcp.PreviewCreativeRequest) (*adcp.PreviewCreativeResponse, error) {
	if req.RequestType != adcp.PreviewCreativeRequestTypeSingle {
		return nil, refuse("UNSUPPORTED_FEATURE", "This seller previews one creative at a time (request_type single)", "request_type")
	}
	var format adcp.FormatID
	name := ""
	switch {
	case req.CreativeManifest != nil:
		format = req.CreativeManifest.FormatID
	case req.FormatID != nil:
		format = *req.FormatID
	}
	if req.CreativeID != nil {
		p, _ := seller.PrincipalFrom(ctx)
		s.library.mu.Lock()
		if c := s.library.find(p.ID, "", *req.CreativeID); c != nil {
			name, format = c.name, c.format
		}
		s.library.mu.Unlock()
	}
	if format.ID == "" {
		return nil, refuse("INVALID_REQUEST", "Name the creative to preview: creative_manifest, format_id or creative_id", "creative_manifest")
	}
	s.mu.Lock()
	s.next++
	id := "prv_" + strconv.Itoa(s.next)
	s.mu.Unlock()
	expires := s.now().Add(time.Hour).UTC().Truncate(time.Second)
	page := "<!doctype html><title>Preview " + html.EscapeString(id) + "</title><p>Format " + html.EscapeString(format.ID) +
		" of " + html.EscapeString(format.AgentURL) + "</p><p>" + html.EscapeString(name) + "</p>"
	s.previews.mu.Lock()
	for k, v := range s.previews.pages {
		if s.now().After(v.expires) {
			delete(s.previews.pages, k)
		}
	}
	s.previews.pages[id] = preview{html: page, expires: expires}
	s.previews.mu.Unlock()
	out, err := typed[adcp.PreviewCreativeResponse](map[string]any{
		"response_type": "single",
		"previews": []any{map[string]any{
			"preview_id": id,
			"renders":    []any{map[string]any{"render_id": id + "_r1", "output_format": "url", "preview_url": s.baseURL + "/preview/" + id, "role": "primary"}},
			"input":      map[string]any{"name": "Default"},
		}},
		"expires_at": expires.Format(time.RFC3339),
	})
	return out, err
}

// servePreview serves GET /preview/{id}.
func (s *sales) servePreview(w http.ResponseWriter, r *http.Request) {
	s.previews.mu.Lock()
	p, ok := s.previews.pages[r.PathValue("id")]
	s.previews.mu.Unlock()
	if !ok || s.now().After(p.expires) {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'")
	_, _ = w.Write([]byte(p.html))
}

// buildCreative builds a VAST tag for a creative of the library (a vast_*
// target format) and, from 3.1, the canonical builds it advertises
// (build.go).
func (s *sales) buildCreative(ctx context.Context, req *adcp.BuildCreativeRequest) (*adcp.BuildCreativeResult, error) {
	p, _ := seller.PrincipalFrom(ctx)
	if req.TargetFormatID != nil && laterRelease(ctx) {
		if c := findBuildCapability(req.TargetFormatID.ID); c != nil {
			return s.buildCanonical(c)
		}
		if !strings.HasPrefix(req.TargetFormatID.ID, "vast") {
			return nil, formatNotSupported(*req.TargetFormatID)
		}
	}
	if req.TargetFormatID == nil || !strings.HasPrefix(req.TargetFormatID.ID, "vast") {
		return nil, refuse("UNSUPPORTED_FEATURE", "This seller builds VAST tags only (target_format_id vast_*)", "target_format_id")
	}
	if req.CreativeID == nil {
		return nil, refuse("INVALID_REQUEST", "Name the library creative to wrap (creative_id)", "creative_id")
	}
	s.library.mu.Lock()
	c := s.library.find(p.ID, "", *req.CreativeID)
	s.library.mu.Unlock()
	if c == nil {
		return nil, refuse("CREATIVE_NOT_FOUND", "No creative "+strconv.Quote(*req.CreativeID)+" in this library", "creative_id")
	}
	vast := `<VAST version="4.2"><Ad id="` + html.EscapeString(c.id) + `"><InLine><AdSystem>adcpgen example seller</AdSystem><AdTitle>` +
		html.EscapeString(c.name) + `</AdTitle><Impression/><Creatives/></InLine></Ad></VAST>`
	out, err := typed[adcp.BuildCreativeResponse](map[string]any{
		"creative_manifest": map[string]any{"format_id": *req.TargetFormatID,
			"assets": map[string]any{"vast_tag": map[string]any{"asset_type": "vast", "delivery_type": "inline", "content": vast, "vast_version": "4.2"}}},
	})
	if err != nil {
		return nil, err
	}
	return &adcp.BuildCreativeResult{Message: "Built a VAST tag for " + c.id + ".", Response: out}, nil
}

// getCreativeDelivery reports the principal's creatives: this seller
// serves each as one variant, and reports no per-creative delivery apart
// from its buys' (get_media_buy_delivery).
func (s *sales) getCreativeDelivery(ctx context.Context, req *adcp.GetCreativeDeliveryRequest) (*adcp.GetCreativeDeliveryResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	account, _ := s.accounts.key(p.ID, req.Account)
	now := s.now().UTC().Truncate(time.Second)
	var creatives []any
	s.library.mu.Lock()
	for _, c := range s.library.items {
		if c.visible(p.ID, account) && (len(req.CreativeIDs) == 0 || slices.Contains(req.CreativeIDs, c.id)) {
			creatives = append(creatives, map[string]any{"creative_id": c.id, "format_id": c.format, "variants": []any{}})
		}
	}
	s.library.mu.Unlock()
	if creatives == nil {
		creatives = []any{}
	}
	return typed[adcp.GetCreativeDeliveryResponse](map[string]any{
		"currency":         "USD",
		"reporting_period": map[string]any{"start": now.AddDate(0, 0, -1).Format(time.RFC3339), "end": now.Format(time.RFC3339)},
		"creatives":        creatives,
	})
}

// getCreativeFeatures evaluates no features: this seller runs no creative
// classifiers, and says so with an empty result.
func (s *sales) getCreativeFeatures(context.Context, *adcp.GetCreativeFeaturesRequest) (*adcp.GetCreativeFeaturesResponse, error) {
	return typed[adcp.GetCreativeFeaturesResponse](map[string]any{"results": []any{}})
}
