package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/lifecycle"
	"github.com/adcpgen/adcpgen/runtime/pagination"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/totalbudget"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Media buys after create_media_buy: get_media_buys reads them,
// update_media_buy pauses, resumes, cancels and changes them, with the
// lifecycle's rules (runtime/lifecycle: INVALID_STATE on a final buy,
// NOT_CANCELLABLE on a second cancel), and delivery accumulates on them.
// A buy is pending_creatives until a package has a creative, then
// pending_start before its flight and active during it; it completes,
// is rejected or canceled only when told to (this seller runs no clock of
// its own over buys).

// buy is a media buy.
type buy struct {
	id, principal, account string // account: the account key ("" for sandbox fixtures)
	status                 string
	start, end             time.Time
	startRaw, endRaw       wire.DateTime
	currency               string
	packages               []*pkg
	created, updated       time.Time
	revision               int64
	cancellation           *adcp.GetMediaBuysResponseMediaBuyCancellation
	governanceContext      string
	delivered              deliveryTotals
	budgetSpent            float64 // simulate_budget_spend
	// context is create_media_buy's context, which read surfaces echo
	// (3.1: media_buys[].context, for buyers reconciling their own ids).
	context adcp.ContextObject
	// actions is the allowed_actions[] template of the buy's product
	// (3.1), nil when its products declare none: the buy's
	// available_actions[] are resolved from it, and updates checked
	// against it.
	actions []lifecycle.AllowedAction
}

// availableActions are the buy's available_actions[] now, as an answer's
// additional member; nil without a template.
func (b *buy) availableActions() map[string]json.RawMessage {
	if len(b.actions) == 0 {
		return nil
	}
	available := lifecycle.Available(b.actions, b.status)
	if available == nil {
		available = []lifecycle.AvailableAction{}
	}
	return map[string]json.RawMessage{"available_actions": objectJSON(available)}
}

// attemptedActions are the actions an update maps to
// (media-buy-valid-action values), for the buy's template to allow.
func attemptedActions(b *buy, req *adcp.UpdateMediaBuyRequest) []string {
	var out []string
	add := func(a string) {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	switch {
	case req.Canceled != nil && *req.Canceled:
		add("cancel")
	case req.Paused != nil && *req.Paused:
		add("pause")
	case req.Paused != nil:
		add("resume")
	}
	if req.EndTime != nil {
		if t, err := time.Parse(time.RFC3339, string(*req.EndTime)); err == nil && t.Before(b.end) {
			add("shorten_flight")
		} else {
			add("extend_flight")
		}
	}
	if req.StartTime != nil {
		add("update_flight_dates")
	}
	for _, u := range req.Packages {
		pk := b.pkgByID(u.PackageID)
		if pk == nil {
			continue
		}
		switch {
		case u.Budget != nil && *u.Budget > pk.budget:
			add("increase_budget")
		case u.Budget != nil && *u.Budget < pk.budget:
			add("decrease_budget")
		}
		if u.TargetingOverlay != nil {
			add("update_targeting")
		}
		if u.CreativeAssignments != nil {
			add("update_creative_assignments")
		}
		if u.Paused != nil && *u.Paused {
			add("pause")
		} else if u.Paused != nil {
			add("resume")
		}
		if u.Canceled != nil && *u.Canceled {
			add("remove_packages")
		}
	}
	if len(req.NewPackages) > 0 {
		add("add_packages")
	}
	return out
}

// pkg is a package of a buy.
type pkg struct {
	id, productID, pricingOptionID string
	budget                         float64
	pricing                        price
	targeting                      *adcp.TargetingOverlay
	measurement                    *adcp.MeasurementTerms
	creatives                      []adcp.CreativeAssignment
	paused, canceled               bool
	context                        adcp.ContextObject // the package request's, echoed on every read
}

// total is the buy's budget.
func (b *buy) total() float64 {
	t := 0.0
	for _, p := range b.packages {
		t += p.budget
	}
	return t
}

// live is where a buy that is neither paused nor final stands: waiting for
// creatives, for its flight, or running.
func (b *buy) live(now time.Time) string {
	has := false
	for _, p := range b.packages {
		has = has || len(p.creatives) > 0
	}
	switch {
	case !has && len(b.packages) > 0:
		return lifecycle.MediaBuyPendingCreatives
	case now.Before(b.start):
		return lifecycle.MediaBuyPendingStart
	}
	return lifecycle.MediaBuyActive
}

// settle moves a waiting buy on when it can (creatives attached, flight
// started); the lifecycle has no way back to waiting, and paused and final
// buys stay.
func (b *buy) settle(now time.Time) {
	if b.status == lifecycle.MediaBuyPaused || lifecycle.MediaBuyFinal(b.status) {
		return
	}
	if next := b.live(now); lifecycle.MediaBuyMove(b.status, next) == nil {
		b.status = next
	}
}

// pkgByID finds a package.
func (b *buy) pkgByID(id string) *pkg {
	for _, p := range b.packages {
		if p.id == id {
			return p
		}
	}
	return nil
}

// visible reports whether account (a key, "" for none named) sees b:
// its own account's buys, and sandbox fixtures everywhere.
func (b *buy) visible(account string) bool {
	return account == "" || b.account == "" || b.account == account
}

// notFound is MEDIA_BUY_NOT_FOUND for a buy the book does not hold for
// the principal (another buyer's is not found either), and other errors as
// they are.
func notFound(id string, err error) error {
	if errors.Is(err, errNoBuy) {
		return refuse("MEDIA_BUY_NOT_FOUND", "No media buy "+strconv.Quote(id), "media_buy_id")
	}
	return err
}

// listed calls fn with what a list of a principal's buys shows, oldest
// first: those named by id, whatever the account (buy ids are this
// seller's, unique across accounts: the compliance runner names the run's
// default account on some calls and the storyboard's on others), else
// those visible in the account.
func (s *sales) listed(ctx context.Context, principal, account string, ids []string, fn func(b *buy)) error {
	return s.buys.each(ctx, principal, func(b *buy) {
		switch {
		case len(ids) > 0:
			if slices.Contains(ids, b.id) {
				fn(b)
			}
		case b.visible(account):
			fn(b)
		}
	})
}

// getMediaBuys answers the principal's buys: those named, else those in
// the statuses asked for (active by default, as AdCP says), a page at a
// time, newest last.
func (s *sales) getMediaBuys(ctx context.Context, req *adcp.GetMediaBuysRequest) (*adcp.GetMediaBuysResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	account, _ := s.accounts.key(p.ID, req.Account)
	// The default ["active"] applies only to a listing: named buys get no
	// implicit status filter, but an explicit one applies to them too.
	statuses, explicit := []string{lifecycle.MediaBuyActive}, true
	switch f := req.StatusFilter; {
	default:
		explicit = false
	case f.String != nil:
		statuses = []string{string(*f.String)}
	case f.Array != nil:
		statuses = nil
		for _, st := range f.Array {
			statuses = append(statuses, string(st))
		}
	}
	now := s.now()
	var list []adcp.GetMediaBuysResponseMediaBuy
	err := s.listed(ctx, p.ID, account, req.MediaBuyIDs, func(b *buy) {
		if (len(req.MediaBuyIDs) == 0 || explicit) && !slices.Contains(statuses, b.status) {
			return
		}
		list = append(list, b.wire(now))
	})
	if err != nil {
		return nil, err
	}
	page, err := pagination.Slice(list, func(m adcp.GetMediaBuysResponseMediaBuy) string { return m.MediaBuyID }, pageRequest(ctx, req.Pagination))
	if err != nil {
		return nil, err
	}
	resp := &adcp.GetMediaBuysResponse{MediaBuys: page.Items, Pagination: pageResponse(page.Response())}
	if resp.MediaBuys == nil {
		resp.MediaBuys = []adcp.GetMediaBuysResponseMediaBuy{}
	}
	if s.sandbox {
		resp.Sandbox = ptr(true)
	}
	return resp, nil
}

// wire is the buy as get_media_buys shows it.
func (b *buy) wire(now time.Time) adcp.GetMediaBuysResponseMediaBuy {
	out := adcp.GetMediaBuysResponseMediaBuy{
		MediaBuyID: b.id, Status: adcp.MediaBuyStatus(b.status), Currency: b.currency, TotalBudget: b.total(),
		Revision: ptr(b.revision), Cancellation: b.cancellation, Packages: []adcp.PackageStatus{},
		CreatedAt: ptr(dateTime(b.created)), UpdatedAt: ptr(dateTime(b.updated)), ConfirmedAt: ptr(dateTime(b.created)),
	}
	if b.startRaw != "" {
		out.StartTime, out.EndTime = ptr(b.startRaw), ptr(b.endRaw)
	}
	for _, a := range lifecycle.ValidActions(b.status) {
		out.ValidActions = append(out.ValidActions, adcp.MediaBuyValidAction(a))
	}
	for _, p := range b.packages {
		ps := adcp.PackageStatus{PackageID: p.id, ProductID: nonEmpty(p.productID), Budget: ptr(p.budget), Currency: ptr(b.currency),
			TargetingOverlay: p.targeting, Paused: ptr(p.paused), Canceled: ptr(p.canceled)}
		if len(p.context) > 0 {
			ps.AdditionalProperties = map[string]json.RawMessage{"context": objectJSON(p.context)}
		}
		out.Packages = append(out.Packages, ps)
	}
	if len(b.context) > 0 || len(b.actions) > 0 {
		out.AdditionalProperties = map[string]json.RawMessage{}
		if len(b.context) > 0 {
			out.AdditionalProperties["context"] = objectJSON(b.context)
		}
		maps.Copy(out.AdditionalProperties, b.availableActions())
	}
	return out
}

// objectJSON encodes a value that always encodes (a decoded JSON object).
func objectJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// updateMediaBuy applies a buyer's changes: pause or resume, cancel, and
// package changes (budget, targeting, creatives, pause, cancel), each
// against the lifecycle; nothing is applied when any part is refused.
func (s *sales) updateMediaBuy(ctx context.Context, req *adcp.UpdateMediaBuyRequest) (*adcp.UpdateMediaBuyResult, error) {
	p, _ := seller.PrincipalFrom(ctx)
	now := s.now()
	var out *adcp.UpdateMediaBuyResult
	// 3.2's total_budget, which the 3.0.26 request has no member for.
	var total *totalbudget.Amount
	if c := seller.CallFrom(ctx); c != nil {
		var err error
		if total, err = totalbudget.ReadAmount(c.Member("total_budget")); err != nil {
			return nil, err
		}
	}
	err := s.buys.update(ctx, p.ID, req.MediaBuyID, func(b *buy) (err error) {
		for i, u := range req.Packages {
			if pk := b.pkgByID(u.PackageID); pk != nil {
				if err := s.packageTargeting(pk.productID, u.TargetingOverlay, fmt.Sprintf("packages[%d]", i)); err != nil {
					return err
				}
			}
		}
		out, err = s.applyUpdate(b, req, total, now)
		return err
	})
	if err != nil {
		return nil, notFound(req.MediaBuyID, err)
	}
	return out, nil
}

// applyUpdate applies an update_media_buy to b, all or nothing.
func (s *sales) applyUpdate(b *buy, req *adcp.UpdateMediaBuyRequest, total *totalbudget.Amount, now time.Time) (*adcp.UpdateMediaBuyResult, error) {
	var err error
	status := b.status
	switch {
	case req.Canceled != nil && *req.Canceled:
		if status, err = lifecycle.Cancel(status); err != nil {
			return nil, err
		}
	case req.Paused != nil && *req.Paused:
		if status, err = lifecycle.Pause(status); err != nil {
			return nil, err
		}
	case req.Paused != nil:
		if status, err = lifecycle.Resume(status); err != nil {
			return nil, err
		}
	}
	if len(req.Packages) > 0 || req.StartTime != nil || req.EndTime != nil || len(req.NewPackages) > 0 || total != nil {
		if err := lifecycle.Update(b.status); err != nil {
			return nil, err
		}
	}
	for i, u := range req.Packages {
		if b.pkgByID(u.PackageID) == nil {
			return nil, refuse("PACKAGE_NOT_FOUND", "Media buy "+b.id+" has no package "+strconv.Quote(u.PackageID), fmt.Sprintf("packages[%d].package_id", i))
		}
		if u.Budget != nil && *u.Budget <= 0 {
			return nil, refuse("INVALID_REQUEST", "A package budget must be positive", fmt.Sprintf("packages[%d].budget", i))
		}
	}
	if len(b.actions) > 0 {
		// The product's template decides what a direct update may do.
		if err := lifecycle.CheckActions(b.actions, b.status, attemptedActions(b, req)); err != nil {
			return nil, err
		}
	}
	var added []*pkg
	for i, np := range req.NewPackages {
		pk, err := s.newPackage(b.id, len(b.packages)+i, np, fmt.Sprintf("new_packages[%d]", i))
		if err != nil {
			return nil, err
		}
		added = append(added, pk)
	}
	// 3.2's total_budget: alone it scales the packages, beside package
	// changes it must match them.
	var scaled []totalbudget.PackageBudget
	switch {
	case total != nil && len(req.Packages) == 0 && len(req.NewPackages) == 0:
		if scaled, err = totalbudget.Scale(b.budgets(), b.currency, *total); err != nil {
			return nil, err
		}
	case total != nil:
		ch := totalbudget.Changes{Budgets: map[string]float64{}}
		for _, u := range req.Packages {
			if u.Budget != nil {
				ch.Budgets[u.PackageID] = *u.Budget
			}
			if u.Canceled != nil && *u.Canceled {
				ch.Budgets[u.PackageID] = 0
			}
		}
		for _, pk := range added {
			ch.Added += pk.budget
		}
		if err := totalbudget.Match(b.budgets(), b.currency, *total, ch); err != nil {
			return nil, err
		}
	}
	// Everything checks: apply.
	var affected []adcp.Package
	for _, sp := range scaled {
		pk := b.pkgByID(sp.ID)
		pk.budget = sp.Budget
		affected = append(affected, pk.wire())
	}
	for _, u := range req.Packages {
		pk := b.pkgByID(u.PackageID)
		if u.Budget != nil {
			pk.budget = *u.Budget
		}
		if u.TargetingOverlay != nil {
			pk.targeting = u.TargetingOverlay
		}
		if u.CreativeAssignments != nil {
			pk.creatives = u.CreativeAssignments
		}
		if u.Paused != nil {
			pk.paused = *u.Paused
		}
		if u.Canceled != nil && *u.Canceled {
			pk.canceled = true
		}
		affected = append(affected, pk.wire())
	}
	for _, pk := range added {
		b.packages = append(b.packages, pk)
		affected = append(affected, pk.wire())
	}
	if req.EndTime != nil {
		b.endRaw = *req.EndTime
		if t, err := time.Parse(time.RFC3339, string(*req.EndTime)); err == nil {
			b.end = t
		}
	}
	if req.StartTime != nil && *req.StartTime != "asap" {
		b.startRaw = wire.DateTime(*req.StartTime)
		if t, err := time.Parse(time.RFC3339, string(*req.StartTime)); err == nil {
			b.start = t
		}
	}
	if status == lifecycle.MediaBuyCanceled && b.status != lifecycle.MediaBuyCanceled {
		reason := req.CancellationReason
		b.cancellation = &adcp.GetMediaBuysResponseMediaBuyCancellation{CanceledAt: dateTime(now), CanceledBy: adcp.CanceledByBuyer, Reason: reason}
	}
	b.status = status
	b.settle(now)
	b.revision++
	b.updated = now
	resp := adcp.UpdateMediaBuySuccess{MediaBuyID: b.id, Status: ptr(adcp.MediaBuyStatus(b.status)), Revision: ptr(b.revision), AffectedPackages: affected,
		AdditionalProperties: b.availableActions()}
	if total != nil {
		// 3.2 echoes the new aggregate.
		if resp.AdditionalProperties == nil {
			resp.AdditionalProperties = map[string]json.RawMessage{}
		}
		resp.AdditionalProperties["total_budget"] = objectJSON(b.liveTotal())
	}
	for _, a := range lifecycle.ValidActions(b.status) {
		resp.ValidActions = append(resp.ValidActions, adcp.MediaBuyValidAction(a))
	}
	r := adcp.NewUpdateMediaBuyResponseSuccess(resp)
	return &adcp.UpdateMediaBuyResult{Message: "Media buy " + b.id + " is " + b.status + ".", Response: &r}, nil
}

// wire is the package as create and update answers show it.
func (p *pkg) wire() adcp.Package {
	return adcp.Package{PackageID: p.id, ProductID: nonEmpty(p.productID), Budget: ptr(p.budget), PricingOptionID: nonEmpty(p.pricingOptionID),
		TargetingOverlay: p.targeting, MeasurementTerms: p.measurement, CreativeAssignments: p.creatives,
		Paused: ptr(p.paused), Canceled: ptr(p.canceled), Context: p.context}
}

// newPackage checks a requested package against the catalog and makes it.
func (s *sales) newPackage(buyID string, i int, r adcp.PackageRequest, field string) (*pkg, error) {
	if _, ok := s.catalog.product(r.ProductID); !ok {
		return nil, refuse("PRODUCT_NOT_FOUND", "No product "+strconv.Quote(r.ProductID)+" in this catalog", field+".product_id")
	}
	pr, ok := s.catalog.price(r.ProductID, r.PricingOptionID)
	if !ok {
		return nil, refuse("INVALID_REQUEST", "Product "+strconv.Quote(r.ProductID)+" has no pricing option "+strconv.Quote(r.PricingOptionID), field+".pricing_option_id")
	}
	if r.Budget <= 0 {
		return nil, refuse("INVALID_REQUEST", "A package budget must be positive", field+".budget")
	}
	return &pkg{id: fmt.Sprintf("%s_pkg_%d", buyID, i+1), productID: r.ProductID, pricingOptionID: r.PricingOptionID,
		budget: r.Budget, pricing: pr, targeting: r.TargetingOverlay, measurement: r.MeasurementTerms,
		creatives: r.CreativeAssignments, paused: r.Paused != nil && *r.Paused, context: r.Context}, nil
}

// forceBuy moves a buy to status (force_media_buy_status).
func (s *sales) forceBuy(ctx context.Context, principal, id, status string) (prev string, err error) {
	err = s.buys.update(ctx, principal, id, func(b *buy) error {
		prev = b.status
		if err := lifecycle.ForceMediaBuy(b.status, status); err != nil {
			return err
		}
		b.status = status
		b.revision++
		b.updated = s.now()
		return nil
	})
	if errors.Is(err, errNoBuy) {
		return "", errNotFound
	}
	return prev, err
}

// seedBuy adds a sandbox media buy from the runner's fixture
// (seed_media_buy): its status and currency, no packages; it is visible in
// every account of the principal.
func (s *sales) seedBuy(ctx context.Context, principal, id, status, currency string, fixture wire.Lenient) error {
	if status == "" {
		status = lifecycle.MediaBuyActive
	}
	if !slices.Contains(lifecycle.MediaBuyStatuses, status) {
		return fmt.Errorf("status %q is not a media buy status", status)
	}
	if currency == "" {
		currency = "USD"
	}
	now := s.now()
	b := &buy{id: id, principal: principal, status: status, currency: currency, start: now, end: now.AddDate(0, 1, 0),
		created: now, updated: now, revision: 1}
	// The fixture's context and packages (a package may name no product:
	// a buy booked before the buyer's ids were kept, correlated by its
	// context alone).
	if c := fixture.Get("context"); c.IsObject() {
		if err := json.Unmarshal(c, &b.context); err != nil {
			return fmt.Errorf("context: %w", err)
		}
	}
	var err error
	fixture.Get("packages").Elems(func(e wire.Lenient) bool {
		var in struct {
			ID        string             `json:"package_id"`
			ProductID string             `json:"product_id"`
			Budget    float64            `json:"budget"`
			Context   adcp.ContextObject `json:"context"`
			// The creatives assigned: ids, or assignments.
			Assigned []json.RawMessage `json:"creative_assignments"`
		}
		if err = json.Unmarshal(e, &in); err != nil {
			return false
		}
		if in.ID == "" {
			in.ID = fmt.Sprintf("%s_pkg_%d", id, len(b.packages)+1)
		}
		var creatives []adcp.CreativeAssignment
		for _, raw := range in.Assigned {
			var a adcp.CreativeAssignment
			if err = json.Unmarshal(raw, &a.CreativeID); err != nil {
				if err = json.Unmarshal(raw, &a); err != nil {
					return false
				}
			}
			creatives = append(creatives, a)
		}
		b.packages = append(b.packages, &pkg{id: in.ID, productID: in.ProductID, budget: in.Budget, context: in.Context,
			pricing: price{currency: currency}, creatives: creatives})
		return true
	})
	if err != nil {
		return fmt.Errorf("packages: %w", err)
	}
	return s.buys.seed(ctx, b)
}

func ptr[T any](v T) *T { return &v }

// dateTime is t as AdCP's date-time.
func dateTime(t time.Time) wire.DateTime { return wire.DateTime(t.UTC().Format(time.RFC3339)) }

// nonEmpty is s, nil when empty (a member left out).
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
