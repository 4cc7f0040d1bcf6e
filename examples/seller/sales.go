package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/lifecycle"
	"github.com/adcpgen/adcpgen/runtime/notifyconfig"
	"github.com/adcpgen/adcpgen/runtime/proposal"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellergov"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// sales is the seller's business: its catalog, accounts, media buys,
// creative library and proposals, and in a sandbox the test controller's
// state (sandbox.go), which one replica keeps. Its tasks live in the store
// (a submitted buy is made from the request its task kept), so replicas
// sharing a PostgreSQL store finish each other's tasks.
type sales struct {
	srv       *seller.Server
	catalog   *catalog
	accounts  *accounts
	library   *library
	formats   *formats
	previews  *previews
	records   *records
	proposals *proposal.Book
	// notify keeps each account's webhook subscribers (sync_accounts'
	// notification_configs, 3.1 and later), checked against webhookURLs.
	notify      *notifyconfig.Keeper
	webhookURLs untrusted.PushURLPolicy
	governance  *sellergov.Checker // nil: buys are not governed
	sandbox     bool
	baseURL     string
	log         *slog.Logger
	now         func() time.Time // the seller's clock (config.Now)

	buys book // the media buys (book.go)
	// offers are the configured products get_products issued
	// (configured.go).
	offers offerBook
	// policies are the provenance policies a sync is held to
	// (provenance.go).
	policies policies
	// tags fetches hosted tags for the policies they are held to
	// (tagscan.go).
	tags *tagScanner

	mu     sync.Mutex
	next   int                     // the last preview's number
	forced map[string]forcedArm    // by tool and principal (armKey): the next call's arm
	down   map[string]upstreamDown // by principal: the next get_products' unreachable upstream
	held   map[string]bool         // forced tasks (heldKey), open until force_task_completion
}

func newSales(c *catalog, buys book, sandbox bool, baseURL string, gov *sellergov.Checker, log *slog.Logger, now func() time.Time) *sales {
	return &sales{now: now, catalog: c, accounts: newAccounts(), library: &library{}, formats: &formats{},
		previews: &previews{pages: map[string]preview{}}, records: newRecords(),
		proposals: proposal.New(adcp.Spec(), proposal.Options{Now: now}), governance: gov, sandbox: sandbox, baseURL: baseURL, log: log,
		buys: buys, forced: map[string]forcedArm{}, down: map[string]upstreamDown{}, held: map[string]bool{}}
}

// createMediaBuy checks the request against the account, the catalog and
// the calendar (and, for a proposal's acceptance, the proposal), consults
// the account's governance agent about a buy that names a plan, then
// creates the buy, or answers submitted when po_number begins with
// "async" (the task completes on the buyer's first status poll, on any
// replica: completeOnPoll).
func (s *sales) createMediaBuy(ctx context.Context, req *adcp.CreateMediaBuyRequest) (*adcp.CreateMediaBuyResult, error) {
	p, _ := seller.PrincipalFrom(ctx)
	account, err := s.operable(p.ID, req.Account)
	if err != nil {
		return nil, err
	}
	if err := s.fromProposal(ctx, p.ID, req); err != nil {
		return nil, err
	}
	if err := s.resolveOffers(p.ID, req); err != nil {
		return nil, err
	}
	if err := s.check(req); err != nil {
		return nil, err
	}
	if err := s.checkSelectors(ctx); err != nil {
		return nil, err
	}
	governance, err := s.govern(ctx, p.ID, account, req)
	if err != nil {
		return nil, err
	}
	if req.Account.Brand != nil && req.Account.Brand.Sandbox != nil && *req.Account.Brand.Sandbox {
		if arm, ok := s.takeForcedArm(adcp.Tools.CreateMediaBuy.Name(), p.ID); ok {
			return s.forcedSubmitted(ctx, p.ID, arm)
		}
	}
	if req.PoNumber == nil || !strings.HasPrefix(*req.PoNumber, "async") {
		// Booked in the call's unit of work: with PostgreSQL the buy
		// commits with the idempotency record of this answer, or not at all.
		id, resp, err := s.newBuy(ctx, p.ID, account, governance, req, "")
		if err != nil {
			return nil, err
		}
		return &adcp.CreateMediaBuyResult{Message: "Media buy " + id + " created.", Response: &resp}, nil
	}
	if _, err := seller.StartTask(ctx, adcp.Tools.CreateMediaBuy); err != nil {
		return nil, err
	}
	return &adcp.CreateMediaBuyResult{Status: "submitted", Message: "Media buy queued for approval.", Submitted: &adcp.CreateMediaBuySubmitted{}}, nil
}

// fromProposal turns a proposal's acceptance (proposal_id and
// total_budget, no packages) into its packages.
func (s *sales) fromProposal(ctx context.Context, principal string, req *adcp.CreateMediaBuyRequest) error {
	if req.ProposalID == nil {
		return nil
	}
	if len(req.Packages) > 0 {
		return refuse("INVALID_REQUEST", "Accept a proposal with total_budget, or buy packages; not both", "packages")
	}
	if req.TotalBudget == nil {
		return refuse("INVALID_REQUEST", "Accepting a proposal needs total_budget", "total_budget")
	}
	pkgs, err := s.proposals.In(servedSpec(ctx)).Quote(principal, *req.ProposalID, req.TotalBudget.Amount)
	if err != nil {
		return err
	}
	for _, pk := range pkgs {
		req.Packages = append(req.Packages, adcp.PackageRequest{ProductID: pk.ProductID, PricingOptionID: pk.PricingOptionID, Budget: pk.Budget})
	}
	return nil
}

// newBuy books the principal's media buy in the account (for the task
// taskID when a task's work makes it) and makes the response that reports
// it; a proposal it accepts is recorded as accepted. Ids are random, so
// replicas never hand out the same one.
func (s *sales) newBuy(ctx context.Context, principal, account, governance string, req *adcp.CreateMediaBuyRequest, taskID string) (string, adcp.CreateMediaBuyResponse, error) {
	now := s.now()
	id := "mb_" + strings.ToLower(rand.Text()[:12])
	b := &buy{id: id, principal: principal, account: account, start: now, created: now, updated: now, revision: 1,
		endRaw: req.EndTime, governanceContext: governance, currency: "USD", context: req.Context}
	if req.StartTime != "asap" {
		b.startRaw = wire.DateTime(req.StartTime)
		b.start, _ = time.Parse(time.RFC3339, string(req.StartTime))
	} else {
		b.startRaw = dateTime(now)
	}
	b.end, _ = time.Parse(time.RFC3339, string(req.EndTime))
	for i, r := range req.Packages {
		pk, err := s.newPackage(id, i, r, "") // checked already
		if err != nil {
			continue
		}
		if b.actions == nil {
			b.actions = s.catalog.allowedActions(r.ProductID)
		}
		if i == 0 && pk.pricing.currency != "" {
			b.currency = pk.pricing.currency
		}
		b.packages = append(b.packages, pk)
	}
	b.status = b.live(now)
	if err := s.buys.add(ctx, b, req.IdempotencyKey, taskID); err != nil {
		return "", adcp.CreateMediaBuyResponse{}, err
	}
	success := adcp.CreateMediaBuySuccess{MediaBuyID: id, Packages: []adcp.Package{}, Status: ptr(adcp.MediaBuyStatus(b.status)), Revision: ptr(b.revision),
		ConfirmedAt: ptr(dateTime(now)), AdditionalProperties: b.availableActions()}
	for _, pk := range b.packages {
		success.Packages = append(success.Packages, pk.wire())
	}
	for _, a := range lifecycle.ValidActions(b.status) {
		success.ValidActions = append(success.ValidActions, adcp.MediaBuyValidAction(a))
	}
	if req.ProposalID != nil {
		if _, err := s.proposals.Accept(principal, *req.ProposalID, req.TotalBudget.Amount, id); err != nil {
			s.log.Warn("proposal not recorded as accepted", "proposal", *req.ProposalID, "err", err.Error())
		}
	}
	return id, adcp.NewCreateMediaBuyResponseSuccess(success), nil
}

// forcedSubmitted answers a sandbox create_media_buy the test controller
// forced into the submitted arm: the task under the directive's id, which
// stays submitted, polls and all, until force_task_completion gives its
// result (as create_media_buy_async_lifecycle drives it).
func (s *sales) forcedSubmitted(ctx context.Context, principal string, arm forcedArm) (*adcp.CreateMediaBuyResult, error) {
	_, err := seller.StartTaskWithID(ctx, adcp.Tools.CreateMediaBuy, arm.taskID)
	message, err := arm.started(err, "Media buy queued for approval.")
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.held[heldKey(principal, arm.taskID)] = true
	s.mu.Unlock()
	return &adcp.CreateMediaBuyResult{Status: "submitted", Message: message, Submitted: &adcp.CreateMediaBuySubmitted{}}, nil
}

// check refuses what the schema cannot: unknown products and pricing
// options, an end before the start, measurement terms the seller does not
// accept. A start in the past is moved to now, as AdCP allows.
func (s *sales) check(req *adcp.CreateMediaBuyRequest) error {
	for i, p := range req.Packages {
		field := fmt.Sprintf("packages[%d]", i)
		if _, ok := s.catalog.product(p.ProductID); !ok {
			return refuse("PRODUCT_NOT_FOUND", "No product "+strconv.Quote(p.ProductID)+" in this catalog", field+".product_id")
		}
		if !s.catalog.hasPricing(p.ProductID, p.PricingOptionID) {
			return refuse("INVALID_REQUEST", "Product "+strconv.Quote(p.ProductID)+" has no pricing option "+strconv.Quote(p.PricingOptionID), field+".pricing_option_id")
		}
		if p.Budget <= 0 {
			return refuse("INVALID_REQUEST", "A package budget must be positive", field+".budget")
		}
		if t := p.MeasurementTerms; t != nil && t.BillingMeasurement != nil {
			if v := t.BillingMeasurement.MaxVariancePercent; v != nil && *v < 5 {
				return refuse("TERMS_REJECTED", "Billing measurement variance below 5% is not accepted", field+".measurement_terms.billing_measurement.max_variance_percent")
			}
		}
	}
	end, err := time.Parse(time.RFC3339, string(req.EndTime))
	if err != nil {
		return refuse("INVALID_REQUEST", "end_time is not a date-time", "end_time")
	}
	now := s.now()
	start := now
	if req.StartTime != "asap" {
		if start, err = time.Parse(time.RFC3339, string(req.StartTime)); err != nil {
			return refuse("INVALID_REQUEST", "start_time is not a date-time", "start_time")
		}
		// A flight cannot start in the past ("asap" starts now); a few
		// minutes of clock skew pass.
		if start.Before(now.Add(-pastStartSkew)) {
			return refuse("INVALID_REQUEST", "start_time "+string(req.StartTime)+" is in the past: send a future time, or \"asap\"", "start_time")
		}
	}
	if !end.After(start) {
		return refuse("INVALID_REQUEST", "end_time must be after start_time", "end_time")
	}
	return nil
}

// pastStartSkew is how far in the past a start_time may be: clock skew
// between buyer and seller.
const pastStartSkew = 5 * time.Minute

// refuse is a correctable AdCP error of 3.0.26 (the server adds the
// recovery class the spec gives code).
func refuse(code, message, field string) error {
	return &adcperr.Error{Code: code, Message: message, Field: field}
}

// completeOnPoll makes a submitted media buy when its buyer first asks
// for the task's status (sellertask's Refresh hook), on whichever replica
// the poll reaches: the task and the request that started it are read from
// the store (seller.OpenTask). The buy is checked again as it is made (the
// account may have been suspended, the proposal may have expired, the
// plan's budget spent since); a refusal fails the task. The work is
// claimed (seller.WorkOnTask): polls on several replicas at once make one
// buy, and with PostgreSQL the buy commits with the task's completion (and
// its webhook), or not at all; a replica killed mid-work leaves the task
// to the next poll once its claim's lease lapses.
func (s *sales) completeOnPoll(ctx context.Context, principal, id string) error {
	s.mu.Lock()
	held := s.held[heldKey(principal, id)]
	s.mu.Unlock()
	if held {
		return nil // a forced task: force_task_completion ends it
	}
	err := seller.WorkOnTask(ctx, s.srv, principal, id, func(ctx context.Context) error {
		h, req, err := seller.OpenTask(ctx, s.srv, adcp.Tools.CreateMediaBuy, principal, id)
		switch {
		case err != nil:
			return err
		case req == nil: // a task of a store that kept no requests
			return h.Fail(ctx, refuse("INVALID_REQUEST", "This task's request is lost; send the request again with a new idempotency_key", ""))
		}
		account, err := s.operable(principal, req.Account)
		if err == nil {
			err = s.fromProposal(ctx, principal, req)
		}
		var governance string
		if err == nil {
			governance, err = s.govern(ctx, principal, account, req)
		}
		if err != nil {
			return h.Fail(ctx, err)
		}
		_, resp, err := s.newBuy(ctx, principal, account, governance, req, id)
		if err != nil {
			return err
		}
		return h.Complete(ctx, &resp, "Media buy approved.")
	})
	switch {
	case errors.Is(err, seller.ErrTaskNotFound), errors.Is(err, seller.ErrTaskEnded), errors.Is(err, seller.ErrTaskBusy):
		return nil // no create_media_buy task of this buyer's, done already, or being done elsewhere
	}
	return err
}
