package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/lifecycle"
	"github.com/adcpgen/adcpgen/runtime/pagination"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellergov"
)

// Accounts. A buyer declares the brands it operates for with sync_accounts
// (upserted by brand and operator, AdCP's natural key for accounts the
// buyer declares) and lists them with list_accounts. Every account-scoped
// call names its account by that natural key or by the account_id the
// seller assigned; both resolve to one account key, so a buy or a
// creative made under one form is found under the other. An account the
// buyer never synced is still a valid reference (an implicit account) for
// buys and creatives; in a sandbox, so is an account_id the seller never
// assigned (the compliance runner names fixture accounts it never
// created), and list_accounts lists only the synced ones.

// account is a synced account.
type account struct {
	id, brand, operator string
	sandbox             bool
	status              string
	billing             adcp.BillingParty
	paymentTerms        *adcp.PaymentTerms
}

// accounts are each principal's synced accounts, in creation order.
type accounts struct {
	mu      sync.Mutex
	next    int
	byOwner map[string][]*account
	// governance holds the agents sync_governance registered, by account
	// key.
	governance *sellergov.Registry
}

func newAccounts() *accounts {
	return &accounts{byOwner: map[string][]*account{}, governance: sellergov.NewRegistry()}
}

// naturalKey is the account key of a brand and operator.
func naturalKey(brand, operator string) string {
	return "nk:" + strings.ToLower(brand) + "|" + strings.ToLower(operator)
}

// key resolves an account reference of principal to its account key and,
// when it names a synced account, the account. An empty reference is
// "".
func (a *accounts) key(principal string, ref adcp.AccountReference) (string, *account) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case ref.ID != nil:
		for _, acct := range a.byOwner[principal] {
			if acct.id == ref.ID.AccountID {
				return naturalKey(acct.brand, acct.operator), acct
			}
		}
		return "id:" + ref.ID.AccountID, nil
	case ref.Brand != nil:
		k := naturalKey(ref.Brand.Brand.Domain, ref.Brand.Operator)
		for _, acct := range a.byOwner[principal] {
			if naturalKey(acct.brand, acct.operator) == k {
				return k, acct
			}
		}
		return k, nil
	}
	return "", nil
}

// operable refuses a reference to an account that may not transact
// (suspended, unpaid, ...), and, outside a sandbox, an account_id this
// seller never assigned.
func (s *sales) operable(principal string, ref adcp.AccountReference) (string, error) {
	key, acct := s.accounts.key(principal, ref)
	if acct == nil {
		if ref.ID != nil && !s.sandbox {
			return "", refuse("ACCOUNT_NOT_FOUND", "No account "+strconv.Quote(ref.ID.AccountID), "account.account_id")
		}
		return key, nil
	}
	s.accounts.mu.Lock()
	status := acct.status
	s.accounts.mu.Unlock()
	if ok, code := lifecycle.AccountOperable(status); !ok {
		return "", refuse(code, "Account "+acct.id+" is "+status, "account")
	}
	return key, nil
}

// syncAccounts upserts the accounts by brand and operator. This seller
// accepts operator and agent billing on its default terms; sandbox
// accounts, like every account here, are active at once.
func (s *sales) syncAccounts(ctx context.Context, req *adcp.SyncAccountsRequest) (*adcp.SyncAccountsResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	dry := req.DryRun != nil && *req.DryRun
	out := adcp.SyncAccountsSuccess{Accounts: []adcp.SyncAccountsSuccessAccount{}, DryRun: req.DryRun}
	a := s.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, in := range req.Accounts {
		res := adcp.SyncAccountsSuccessAccount{Brand: in.Brand, Operator: in.Operator, Sandbox: in.Sandbox}
		if in.Billing == adcp.BillingPartyAdvertiser {
			res.Action = adcp.SyncAccountsSuccessAccountActionFailed
			res.Status = adcp.SyncAccountsSuccessAccountStatusRejected
			res.Errors = []adcp.Error{{Code: "UNSUPPORTED_FEATURE", Message: "This seller invoices operators or agents, not advertisers directly"}}
			out.Accounts = append(out.Accounts, res)
			continue
		}
		k := naturalKey(in.Brand.Domain, in.Operator)
		var acct *account
		for _, existing := range a.byOwner[p.ID] {
			if naturalKey(existing.brand, existing.operator) == k {
				acct = existing
			}
		}
		res.Action = adcp.SyncAccountsSuccessAccountActionUpdated
		if acct == nil {
			res.Action = adcp.SyncAccountsSuccessAccountActionCreated
			a.next++
			acct = &account{id: "acct_" + strconv.Itoa(a.next), brand: in.Brand.Domain, operator: in.Operator, status: lifecycle.AccountActive}
			if !dry {
				a.byOwner[p.ID] = append(a.byOwner[p.ID], acct)
			}
		}
		if !dry {
			acct.billing, acct.paymentTerms = in.Billing, in.PaymentTerms
			acct.sandbox = in.Sandbox != nil && *in.Sandbox
		}
		name := acct.brand + " via " + acct.operator
		billing := in.Billing
		res.AccountID, res.Name, res.Billing, res.PaymentTerms = &acct.id, &name, &billing, in.PaymentTerms
		res.Status = adcp.SyncAccountsSuccessAccountStatus(acct.status)
		out.Accounts = append(out.Accounts, res)
	}
	r := adcp.NewSyncAccountsResponseSuccess(out)
	return &r, nil
}

// listAccounts lists the principal's synced accounts, oldest first, a page
// at a time. total_count is not sent: every account of the principal is
// listed, sandbox runs included, and a count would say more than the
// page's buyer asked about.
func (s *sales) listAccounts(ctx context.Context, req *adcp.ListAccountsRequest) (*adcp.ListAccountsResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	a := s.accounts
	a.mu.Lock()
	var list []adcp.Account
	for _, acct := range a.byOwner[p.ID] {
		if req.Status != nil && string(*req.Status) != acct.status {
			continue
		}
		if req.Sandbox != nil && *req.Sandbox != acct.sandbox {
			continue
		}
		list = append(list, acct.wire())
	}
	a.mu.Unlock()
	page, err := pagination.Slice(list, func(x adcp.Account) string { return x.AccountID }, pageRequest(ctx, req.Pagination))
	if err != nil {
		return nil, err
	}
	resp := &adcp.ListAccountsResponse{Accounts: page.Items, Pagination: pageResponse(page.Response())}
	resp.Pagination.TotalCount = nil
	if resp.Accounts == nil {
		resp.Accounts = []adcp.Account{}
	}
	return resp, nil
}

// wire is the account as list_accounts shows it.
func (acct *account) wire() adcp.Account {
	brand, operator, billing := adcp.BrandReference{Domain: acct.brand}, acct.operator, acct.billing
	out := adcp.Account{AccountID: acct.id, Name: acct.brand + " via " + acct.operator, Status: adcp.AccountStatus(acct.status),
		Brand: &brand, Operator: &operator, PaymentTerms: acct.paymentTerms}
	if billing != "" {
		out.Billing = &billing
	}
	if acct.sandbox {
		t := true
		out.Sandbox = &t
	}
	return out
}

// forceAccount moves an account to status (force_account_status).
func (s *sales) forceAccount(principal, id, status string) (prev string, err error) {
	a := s.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, acct := range a.byOwner[principal] {
		if acct.id == id {
			if err := lifecycle.AccountMove(acct.status, status); err != nil {
				return acct.status, err
			}
			prev, acct.status = acct.status, status
			return prev, nil
		}
	}
	return "", errNotFound
}

// pageRequest is a list call's pagination, bound to its query.
func pageRequest(ctx context.Context, p *adcp.PaginationRequest) pagination.PageRequest {
	r := pagination.PageRequest{Query: pagination.QueryOf(seller.CallFrom(ctx))}
	if p != nil {
		if p.MaxResults != nil {
			r.MaxResults = *p.MaxResults
		}
		if p.Cursor != nil {
			r.Cursor = *p.Cursor
		}
	}
	return r
}

// pageResponse is the response's pagination object.
func pageResponse(r pagination.PageResponse) *adcp.PaginationResponse {
	total := r.TotalCount
	return &adcp.PaginationResponse{HasMore: r.HasMore, Cursor: r.Cursor, TotalCount: &total}
}

// errNotFound is an entity a controller hook cannot find.
var errNotFound = fmt.Errorf("not found")
