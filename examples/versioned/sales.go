package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"

	"example.com/versioned/adcp"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// sales is the seller's business, written against the generated package
// of whichever version go generate made (3.1.19 and 3.2.0-beta.5 name
// these types alike). It keeps no state of its own: a media buy is made
// from the request, and an async one from the request its task kept, so
// any replica serves any call.
type sales struct {
	catalog []adcp.Product
	srv     *seller.Server
	// replica names this process in the messages it sends, so a test can
	// tell which replica finished a task.
	replica string
}

// getProducts answers the whole catalog. The response's status, and the
// rest of the protocol envelope, are the framework's: the handler leaves
// them empty.
func (s *sales) getProducts(context.Context, *adcp.GetProductsRequest) (*adcp.GetProductsResult, error) {
	scope := adcp.GetProductsResponseCacheScopePublic
	return &adcp.GetProductsResult{
		Message:  fmt.Sprintf("%d products.", len(s.catalog)),
		Response: &adcp.GetProductsResponse{Products: s.catalog, CacheScope: &scope},
	}, nil
}

// createMediaBuy creates the buy, or answers submitted when po_number
// begins with "async": the task completes on the buyer's first status
// poll, on whichever replica it reaches (completeOnPoll). The request is
// read from its raw arguments (Call.Member), which every version's request
// shape has alike.
func (s *sales) createMediaBuy(ctx context.Context, _ *adcp.CreateMediaBuyRequest) (*adcp.CreateMediaBuyResult, error) {
	c := seller.CallFrom(ctx)
	if err := s.check(c.Arguments); err != nil {
		return nil, err
	}
	if po, _ := c.StringMember("po_number"); strings.HasPrefix(po, "async") {
		if _, err := seller.StartTask(ctx, adcp.Tools.CreateMediaBuy); err != nil {
			return nil, err
		}
		// The submitted payload's task_id (required from 3.1) and status
		// are the framework's, from the task just started.
		return &adcp.CreateMediaBuyResult{Status: task.Submitted, Message: "Media buy queued for approval.", Submitted: &adcp.CreateMediaBuySubmitted{}}, nil
	}
	id, resp := s.newBuy(c.Arguments)
	return &adcp.CreateMediaBuyResult{Message: "Media buy " + id + " created.", Response: &resp}, nil
}

// check refuses packages of products the catalog lacks.
func (s *sales) check(args []byte) error {
	var err error
	i := 0
	wire.Lenient(args).Get("packages").Elems(func(p wire.Lenient) bool {
		id, _ := p.Get("product_id").AsString()
		if !s.hasProduct(id) {
			err = &adcperr.Error{Code: "PRODUCT_NOT_FOUND", Message: fmt.Sprintf("No product %q in this catalog", id), Field: fmt.Sprintf("packages[%d].product_id", i)}
			return false
		}
		i++
		return true
	})
	return err
}

func (s *sales) hasProduct(id string) bool {
	for _, p := range s.catalog {
		if p.ProductID == id {
			return true
		}
	}
	return false
}

// newBuy makes a media buy for a request: one package per requested
// package. Ids are random, so replicas never hand out the same one.
func (s *sales) newBuy(args []byte) (string, adcp.CreateMediaBuyResponse) {
	id := "mb_" + strings.ToLower(rand.Text()[:12])
	status := adcp.MediaBuyStatusPendingCreatives
	buy := adcp.CreateMediaBuySuccess{MediaBuyID: id, MediaBuyStatus: &status, Revision: 1,
		ConfirmedAt: wire.Null[wire.DateTime](), Packages: []adcp.Package{}}
	i := 0
	wire.Lenient(args).Get("packages").Elems(func(p wire.Lenient) bool {
		i++
		pkg := adcp.Package{PackageID: fmt.Sprintf("%s_pkg_%d", id, i)}
		if v, ok := p.Get("product_id").AsString(); ok {
			pkg.ProductID = &v
		}
		if v, ok := p.Get("pricing_option_id").AsString(); ok {
			pkg.PricingOptionID = &v
		}
		if v, ok := p.Get("budget").Number(); ok {
			pkg.Budget = &v
		}
		buy.Packages = append(buy.Packages, pkg)
		return true
	})
	return id, adcp.NewCreateMediaBuyResponseSuccess(buy)
}

// completeOnPoll completes a pending media buy when its buyer asks for
// the task's status (sellertask's Refresh hook), on any replica: the task,
// and the request that started it, are in the shared store
// (seller.OpenTask). The work is claimed (seller.WorkOnTask): polls on two
// replicas at once make one buy, and a replica that dies holding the claim
// leaves the task to the next poll once the claim's lease lapses.
func (s *sales) completeOnPoll(ctx context.Context, principal, id string) error {
	err := seller.WorkOnTask(ctx, s.srv, principal, id, func(ctx context.Context) error {
		h, req, err := seller.OpenTask(ctx, s.srv, adcp.Tools.CreateMediaBuy, principal, id)
		switch {
		case err != nil:
			return err
		case req == nil:
			return h.Fail(ctx, &adcperr.Error{Code: "SERVICE_UNAVAILABLE", Message: "The task's request is lost; send it again"})
		}
		_, resp := s.newBuy(h.Request())
		return h.Complete(ctx, &resp, "Media buy approved on replica "+s.replica+".")
	})
	if errors.Is(err, seller.ErrTaskNotFound) || errors.Is(err, seller.ErrTaskEnded) || errors.Is(err, seller.ErrTaskBusy) {
		return nil // not a create_media_buy task of this buyer, done already, or being done on another replica
	}
	return err
}
