package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/billing"
	"github.com/adcpgen/adcpgen/runtime/lifecycle"
	"github.com/adcpgen/adcpgen/runtime/notifyconfig"
	"github.com/adcpgen/adcpgen/runtime/pagination"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellergov"
	"github.com/adcpgen/adcpgen/runtime/testcontroller"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
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
	return a.find(principal, ref)
}

// find is key with a.mu held.
func (a *accounts) find(principal string, ref adcp.AccountReference) (string, *account) {
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

// billingOffer is the billing this seller offers, operator billing on its
// default terms: its capabilities' account.supported_billing. A caller
// here is always identified (an API key or OAuth client is mapped to its
// principal), so a refusal names the gate that fired.
var billingOffer = billing.Offer{Supported: []string{string(adcp.BillingPartyOperator)}}

// syncAccounts upserts the accounts by brand and operator. This seller
// offers operator billing (supportedBilling); sandbox accounts, like every
// account here, are active at once.
func (s *sales) syncAccounts(ctx context.Context, req *adcp.SyncAccountsRequest) (*adcp.SyncAccountsResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	dry := req.DryRun != nil && *req.DryRun
	out := adcp.SyncAccountsSuccess{Accounts: []adcp.SyncAccountsSuccessAccount{}, DryRun: req.DryRun}
	a := s.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	// notification_configs[] (3.1 and later): each account's as sent.
	var raws []wire.Lenient
	if later := laterRelease(ctx); later {
		if c := seller.CallFrom(ctx); c != nil {
			wire.Lenient(c.Member("accounts")).Elems(func(e wire.Lenient) bool { raws = append(raws, e); return true })
		}
	}
	for i, in := range req.Accounts {
		res := adcp.SyncAccountsSuccessAccount{Brand: in.Brand, Operator: in.Operator, Sandbox: in.Sandbox}
		failed := func(errs ...adcp.Error) {
			res.Action = adcp.SyncAccountsSuccessAccountActionFailed
			res.Status = adcp.SyncAccountsSuccessAccountStatusRejected
			res.Errors = errs
			out.Accounts = append(out.Accounts, res)
		}
		var configs []notifyconfig.Config
		notify := i < len(raws) && raws[i].Get("notification_configs").Present()
		if notify {
			var refusals []*adcperr.Error
			configs, refusals = notifyconfig.Read(raws[i].Get("notification_configs").Raw(), notifyconfig.ReadOptions{Scope: notifyconfig.AccountLevel, URLs: s.webhookURLs,
				Issues: configIssues(ctx, i)})
			if len(refusals) > 0 {
				failed(wireErrors(refusals...)...)
				continue
			}
		}
		if i < len(raws) && raws[i].Get("account").Present() {
			// Settings-update mode (3.1): the entry names an existing
			// account and changes its terms or subscribers; it never
			// creates one. Its brand, operator and billing, which 3.0
			// requires, are the shim's placeholders (settingsUpdate).
			var ref adcp.AccountReference
			if err := adcp.Decode(raws[i].Get("account").Raw(), &ref); err != nil {
				failed(adcp.Error{Code: "INVALID_REQUEST", Message: "account is not an account reference", Field: ptr(fmt.Sprintf("accounts[%d].account", i))})
				continue
			}
			_, acct := a.find(p.ID, ref)
			if acct == nil {
				failed(adcp.Error{Code: "ACCOUNT_NOT_FOUND", Message: "No such account: settings-update mode changes an existing account, never creates one", Field: ptr(fmt.Sprintf("accounts[%d].account", i))})
				continue
			}
			brand, operator := adcp.BrandReference{Domain: acct.brand}, acct.operator
			res.Brand, res.Operator, res.Sandbox = brand, operator, nil
			if acct.sandbox {
				res.Sandbox = ptr(true)
			}
			if terms := raws[i].Get("payment_terms"); terms.Present() && !dry {
				t := adcp.PaymentTerms(str(terms))
				acct.paymentTerms = &t
			}
			res.Action = adcp.SyncAccountsSuccessAccountActionUpdated
			name := acct.brand + " via " + acct.operator
			billing := acct.billing
			res.AccountID, res.Name, res.Billing, res.PaymentTerms = &acct.id, &name, &billing, acct.paymentTerms
			res.Status = adcp.SyncAccountsSuccessAccountStatus(acct.status)
			if notify {
				_, set, err := s.notify.Sync(ctx, acct.id, configs, dry)
				if err != nil {
					failed(wireErrors(asAdcpError(err))...)
					continue
				}
				if err := echoConfigs(&res.AdditionalProperties, set); err != nil {
					return nil, err
				}
			}
			out.Accounts = append(out.Accounts, res)
			continue
		}
		if e := billingOffer.Check(servedSpec(ctx), string(in.Billing), fmt.Sprintf("accounts[%d].billing", i), true); e != nil {
			failed(wireErrors(e)...)
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
		if notify {
			// The account's subscribers, replaced by the entries sent (a
			// new account's set, on a dry run, is what it would be).
			_, set, err := s.notify.Sync(ctx, acct.id, configs, dry)
			if err != nil {
				failed(wireErrors(asAdcpError(err))...)
				continue
			}
			if err := echoConfigs(&res.AdditionalProperties, set); err != nil {
				return nil, err
			}
		}
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
	// 3.1's account filter: the one account it names.
	var only *adcp.AccountReference
	if c := seller.CallFrom(ctx); c != nil && len(c.Member("account")) > 0 {
		only = new(adcp.AccountReference)
		if err := adcp.Decode(c.Member("account"), only); err != nil {
			return nil, refuse("INVALID_REQUEST", "account is not an account reference", "account")
		}
	}
	a := s.accounts
	a.mu.Lock()
	var named *account
	if only != nil {
		_, named = a.find(p.ID, *only)
	}
	var list []adcp.Account
	for _, acct := range a.byOwner[p.ID] {
		if only != nil && acct != named {
			continue
		}
		if req.Status != nil && string(*req.Status) != acct.status {
			continue
		}
		if req.Sandbox != nil && *req.Sandbox != acct.sandbox {
			continue
		}
		w := acct.wire()
		if laterRelease(ctx) {
			set, err := s.notify.List(ctx, acct.id)
			if err == nil {
				err = echoConfigs(&w.AdditionalProperties, set)
			}
			if err != nil {
				a.mu.Unlock()
				return nil, err
			}
		}
		list = append(list, w)
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

// echoConfigs puts an account's notification_configs[] (3.1 and later:
// 3.0's account has no such member, which the answer carries as one of
// its additional members) into members, credentials left out.
func echoConfigs(members *map[string]json.RawMessage, set []notifyconfig.Config) error {
	echo, err := notifyconfig.Echo(set)
	if err != nil {
		return err
	}
	if *members == nil {
		*members = map[string]json.RawMessage{}
	}
	(*members)["notification_configs"] = echo
	return nil
}

// wireErrors are refusals as a per-item errors[].
func wireErrors(refusals ...*adcperr.Error) []adcp.Error {
	out := make([]adcp.Error, len(refusals))
	for i, r := range refusals {
		out[i] = *wireError(r)
	}
	return out
}

// wireError is e as a per-item error of a response: code, message, field,
// recovery and details.
func wireError(e *adcperr.Error) *adcp.Error {
	out := &adcp.Error{Code: e.Code, Message: e.Message}
	if e.Field != "" {
		out.Field = ptr(e.Field)
	}
	if e.Recovery != "" {
		out.Recovery = ptr(adcp.ErrorRecovery(e.Recovery))
	}
	if e.Details != nil {
		// The runtime's details are JSON objects by contract.
		raw, _ := json.Marshal(e.Details)
		_ = json.Unmarshal(raw, &out.Details)
	}
	return out
}

// asAdcpError is err as an AdCP error: itself, or SERVICE_UNAVAILABLE.
func asAdcpError(err error) *adcperr.Error {
	var ae *adcperr.Error
	if errors.As(err, &ae) {
		return ae
	}
	return &adcperr.Error{Code: "SERVICE_UNAVAILABLE", Message: "The account's subscribers could not be saved; try again"}
}

// str is a JSON string's value ("" for anything else).
func str(v wire.Lenient) string { s, _ := v.AsString(); return s }

// notificationConfigIssue splits the pointer of a schema violation inside
// an account's notification_configs ("/accounts/2/notification_configs/0/
// event_types/0") into the account's index and the pointer within the
// array ("/0/event_types/0").
func notificationConfigIssue(pointer string) (account int, within string, ok bool) {
	rest, found := strings.CutPrefix(pointer, "/accounts/")
	if !found {
		return 0, "", false
	}
	idx, rest, found := strings.Cut(rest, "/")
	n, err := strconv.Atoi(idx)
	if !found || err != nil {
		return 0, "", false
	}
	within, found = strings.CutPrefix(rest, "notification_configs/")
	if !found {
		return 0, "", false
	}
	return n, "/" + within, true
}

// configIssues are the schema violations of account i's
// notification_configs the framework handed on (Shim.OwnsIssues), with
// pointers within that array.
func configIssues(ctx context.Context, i int) []validate.Issue {
	c := seller.CallFrom(ctx)
	if c == nil {
		return nil
	}
	var out []validate.Issue
	for _, is := range c.SchemaIssues() {
		if n, within, ok := notificationConfigIssue(is.Pointer); ok && n == i {
			is.Pointer = within
			out = append(out, is)
		}
	}
	return out
}

// accountFixture is seed_account's fixture (3.1 and later): the account
// as list_accounts will show it.
type accountFixture struct {
	Brand struct {
		Domain string `json:"domain"`
	} `json:"brand"`
	Operator string `json:"operator"`
	Billing  string `json:"billing"`
	Sandbox  *bool  `json:"sandbox"`
	Status   string `json:"status"`
}

// seedAccount adds the principal's sandbox account under the id the
// runner names (seed_account). Seeding the same id with the same fixture
// again succeeds; with another, or with the brand and operator of another
// account, is a conflict of state.
func (s *sales) seedAccount(principal, id string, fixture json.RawMessage) (testcontroller.Success, error) {
	if id == "" {
		return nil, testcontroller.InvalidParams("seed_account needs params.account_id")
	}
	var f accountFixture
	if err := json.Unmarshal(fixture, &f); err != nil || f.Brand.Domain == "" || f.Operator == "" {
		return nil, testcontroller.InvalidParams("seed_account's fixture needs brand.domain and operator")
	}
	if f.Status == "" {
		f.Status = lifecycle.AccountActive
	}
	if !slices.Contains(lifecycle.AccountStatuses, f.Status) {
		return nil, testcontroller.InvalidParams("seed_account's fixture has no account status " + strconv.Quote(f.Status))
	}
	if f.Sandbox != nil && !*f.Sandbox {
		return nil, testcontroller.InvalidParams("a sandbox seeds sandbox accounts only (fixture.sandbox: true)")
	}
	if e := billingOffer.Check(adcp.Spec(), f.Billing, "params.fixture.billing", true); e != nil {
		return nil, testcontroller.InvalidParams(e.Message)
	}
	seeded := &account{id: id, brand: f.Brand.Domain, operator: f.Operator, sandbox: true, status: f.Status, billing: adcp.BillingParty(f.Billing)}
	a := s.accounts
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, acct := range a.byOwner[principal] {
		same := naturalKey(acct.brand, acct.operator) == naturalKey(seeded.brand, seeded.operator)
		switch {
		case acct.id == id && same && acct.status == seeded.status && acct.billing == seeded.billing && acct.sandbox:
			return testcontroller.Seeded{Message: "Account " + id + " seeded."}, nil
		case acct.id == id:
			return nil, testcontroller.InvalidState(acct.status, "account "+id+" is already seeded with another fixture")
		case same:
			return nil, testcontroller.InvalidState(acct.status, "account "+acct.id+" already has brand "+seeded.brand+" and operator "+seeded.operator)
		}
	}
	a.byOwner[principal] = append(a.byOwner[principal], seeded)
	return testcontroller.Seeded{Message: "Account " + id + " seeded."}, nil
}
