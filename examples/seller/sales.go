package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// sales is the seller's business: its catalog and, in a sandbox, the test
// controller's state (sandbox.go), which one replica keeps. Its tasks live
// in the store (a submitted buy is completed from the request its task
// kept), so replicas sharing a PostgreSQL store serve the same buyers.
type sales struct {
	catalog  *catalog
	srv      *seller.Server
	mu       sync.Mutex
	buys     map[string]string          // media buy id -> principal, for the sandbox's simulate_delivery
	forced   map[string]forcedArm       // by principal: the next create_media_buy's arm
	delivery map[string]*deliveryTotals // by media buy id: simulated delivery
}

func newSales(c *catalog) *sales {
	return &sales{catalog: c, buys: map[string]string{}, forced: map[string]forcedArm{}, delivery: map[string]*deliveryTotals{}}
}

// getProducts answers every buying mode from the catalog: the whole
// catalog for a brief or wholesale, the products named for a refine.
func (s *sales) getProducts(_ context.Context, req *adcp.GetProductsRequest) (*adcp.GetProductsResult, error) {
	products := s.catalog.all()
	if req.BuyingMode == adcp.GetProductsRequestBuyingModeRefine {
		var named []adcp.Product
		for _, r := range req.Refine {
			if r.Product != nil {
				if p, ok := s.catalog.product(r.Product.ProductID); ok {
					named = append(named, p)
				}
			}
		}
		if named != nil {
			products = named
		}
	}
	return &adcp.GetProductsResult{
		Message:  fmt.Sprintf("%d products.", len(products)),
		Response: &adcp.GetProductsResponse{Products: products},
	}, nil
}

// listCreatives answers the buyer's creative library: this seller takes
// no creatives (it has no sync_creatives), so the library is empty. It is
// the protected, read-only task buyers and the compliance runner probe
// authentication with.
func (s *sales) listCreatives(context.Context, *adcp.ListCreativesRequest) (*adcp.ListCreativesResponse, error) {
	return &adcp.ListCreativesResponse{Creatives: []adcp.ListCreativesResponseCreative{}}, nil
}

// createMediaBuy checks the request against the catalog and the calendar,
// then creates the buy, or answers submitted when po_number begins with
// "async" (the task completes on the buyer's first status poll, on any
// replica: completeOnPoll).
func (s *sales) createMediaBuy(ctx context.Context, req *adcp.CreateMediaBuyRequest) (*adcp.CreateMediaBuyResult, error) {
	if err := s.check(req); err != nil {
		return nil, err
	}
	p, _ := seller.PrincipalFrom(ctx)
	if req.Account.Brand != nil && req.Account.Brand.Sandbox != nil && *req.Account.Brand.Sandbox {
		if arm, ok := s.takeForcedArm(p.ID); ok {
			return s.forcedSubmitted(ctx, arm)
		}
	}
	if req.PoNumber == nil || !strings.HasPrefix(*req.PoNumber, "async") {
		id, resp := s.newBuy(p.ID, req)
		return &adcp.CreateMediaBuyResult{Message: "Media buy " + id + " created.", Response: &resp}, nil
	}
	if _, err := seller.StartTask(ctx, adcp.Tools.CreateMediaBuy); err != nil {
		return nil, err
	}
	return &adcp.CreateMediaBuyResult{Status: "submitted", Message: "Media buy queued for approval.", Submitted: &adcp.CreateMediaBuySubmitted{}}, nil
}

// newBuy makes the principal's media buy and the response that reports it.
// Ids are random, so replicas never hand out the same one.
func (s *sales) newBuy(principal string, req *adcp.CreateMediaBuyRequest) (string, adcp.CreateMediaBuyResponse) {
	id := "mb_" + strings.ToLower(rand.Text()[:12])
	s.mu.Lock()
	s.buys[id] = principal
	s.mu.Unlock()
	success := adcp.CreateMediaBuySuccess{MediaBuyID: id, Packages: []adcp.Package{}}
	status := adcp.MediaBuyStatusPendingCreatives
	success.Status = &status
	for i, p := range req.Packages {
		pkg := adcp.Package{PackageID: fmt.Sprintf("%s_pkg_%d", id, i+1), ProductID: &p.ProductID, Budget: &p.Budget,
			PricingOptionID: &p.PricingOptionID, MeasurementTerms: p.MeasurementTerms, TargetingOverlay: p.TargetingOverlay}
		success.Packages = append(success.Packages, pkg)
	}
	return id, adcp.NewCreateMediaBuyResponseSuccess(success)
}

// forcedSubmitted answers a sandbox create_media_buy the test controller
// forced into the submitted arm: the task under the directive's id, which
// completes, like any async buy here, on the first status poll.
func (s *sales) forcedSubmitted(ctx context.Context, arm forcedArm) (*adcp.CreateMediaBuyResult, error) {
	_, err := seller.StartTaskWithID(ctx, adcp.Tools.CreateMediaBuy, arm.taskID)
	if errors.Is(err, seller.ErrTaskIDTaken) {
		return nil, refuse("INVALID_REQUEST", "The forced task id "+strconv.Quote(arm.taskID)+" is taken; force another one", "")
	}
	if err != nil {
		return nil, err
	}
	message := arm.message
	if message == "" {
		message = "Media buy queued for approval."
	}
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
	start := time.Now()
	if req.StartTime != "asap" {
		if start, err = time.Parse(time.RFC3339, string(req.StartTime)); err != nil {
			return refuse("INVALID_REQUEST", "start_time is not a date-time", "start_time")
		}
	}
	if !end.After(start) {
		return refuse("INVALID_REQUEST", "end_time must be after start_time", "end_time")
	}
	return nil
}

// refuse is a correctable AdCP error of 3.0.26 (the server adds the
// recovery class the spec gives code).
func refuse(code, message, field string) error {
	return &adcperr.Error{Code: code, Message: message, Field: field}
}

// completeOnPoll completes a submitted media buy when its buyer first asks
// for the task's status (sellertask's Refresh hook), on whichever replica
// the poll reaches: the task and the request that started it are read from
// the store (seller.OpenTask). Two replicas polled at once may both try;
// the store lets one through, and the other's ErrTaskEnded is ignored.
func (s *sales) completeOnPoll(ctx context.Context, principal, id string) error {
	h, req, err := seller.OpenTask(ctx, s.srv, adcp.Tools.CreateMediaBuy, principal, id)
	switch {
	case errors.Is(err, seller.ErrTaskNotFound), errors.Is(err, seller.ErrTaskEnded):
		return nil // no create_media_buy task of this buyer's, or done already
	case err != nil:
		return err
	case req == nil: // a task of a store that kept no requests
		return h.Fail(ctx, refuse("INVALID_REQUEST", "This task's request is lost; send the request again with a new idempotency_key", ""))
	}
	_, resp := s.newBuy(principal, req)
	if err := h.Complete(ctx, &resp, "Media buy approved."); err != nil && !errors.Is(err, seller.ErrTaskEnded) {
		return err
	}
	return nil
}
