package main

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"example.com/seller/adcp"

	"github.com/jackc/pgx/v5"

	"github.com/adcpgen/adcpgen/runtime/lifecycle"
	"github.com/adcpgen/adcpgen/runtime/sellerstore/pgstore"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The book of media buys: in memory for one replica (memoryBook), in the
// store's PostgreSQL database when replicas share one (pgBook). A buy is
// booked in the unit of work of the call or the task's work that makes it
// (pgstore's InTx): with PostgreSQL it commits with the idempotency record
// of the answer that names it, or with the task's completion, or not at
// all, so a retry after any fault replays the one buy or makes it, never a
// second one.
type book interface {
	// add books b, made by the create_media_buy of idempotency key (and,
	// for a task's work, task id).
	add(ctx context.Context, b *buy, key, taskID string) error
	// update runs fn on principal's buy id, holding it, and keeps what fn
	// changed unless fn fails. A buy of another principal is not found.
	update(ctx context.Context, principal, id string, fn func(b *buy) error) error
	// each calls fn with each of principal's buys, oldest first; fn must
	// not keep b.
	each(ctx context.Context, principal string, fn func(b *buy)) error
	// seed books a sandbox fixture under id, replacing principal's own.
	seed(ctx context.Context, b *buy) error
}

// errNoBuy: no such buy of the principal's.
var errNoBuy = errors.New("no such media buy")

// memoryBookSize bounds memoryBook: past it the oldest buys are dropped,
// so a seller left running in memory does not grow without bound (with
// -postgres every buy is kept).
const memoryBookSize = 10_000

// memoryBook keeps the latest memoryBookSize buys of one replica.
type memoryBook struct {
	mu     sync.Mutex
	ledger map[string]*buy // by media buy id
	order  []string        // media buy ids, oldest first
}

func newMemoryBook() *memoryBook { return &memoryBook{ledger: map[string]*buy{}} }

func (m *memoryBook) add(_ context.Context, b *buy, _, _ string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ledger[b.id] = b
	m.order = append(m.order, b.id)
	for len(m.order) > memoryBookSize {
		delete(m.ledger, m.order[0])
		m.order = m.order[1:]
	}
	return nil
}

func (m *memoryBook) update(_ context.Context, principal, id string, fn func(b *buy) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.ledger[id]
	if b == nil || b.principal != principal {
		return errNoBuy
	}
	cp := b.clone()
	if err := fn(cp); err != nil {
		return err
	}
	m.ledger[id] = cp
	return nil
}

func (m *memoryBook) each(_ context.Context, principal string, fn func(b *buy)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range m.order {
		if b := m.ledger[id]; b.principal == principal {
			fn(b)
		}
	}
	return nil
}

func (m *memoryBook) seed(_ context.Context, b *buy) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if old := m.ledger[b.id]; old != nil && old.principal != b.principal {
		return errors.New("media buy " + b.id + " exists")
	} else if old == nil {
		m.order = append(m.order, b.id)
	}
	m.ledger[b.id] = b
	return nil
}

// pgBook keeps the buys in the store's database, one row each: the buy as
// a JSON document, with the idempotency key and task that made it (what
// an operator counts to find a key or a task booked twice).
type pgBook struct {
	store *pgstore.Store
}

// pgBookSchema creates the table, once, whichever replica starts first.
const pgBookSchema = `SELECT pg_advisory_xact_lock(7365116111);
	CREATE TABLE IF NOT EXISTS seller_media_buys (
		id              text PRIMARY KEY,
		principal       text NOT NULL,
		idempotency_key text,
		task_id         text,
		created_at      timestamptz NOT NULL,
		doc             jsonb NOT NULL
	);
	CREATE INDEX IF NOT EXISTS seller_media_buys_principal ON seller_media_buys (principal, created_at, id);`

func newPGBook(ctx context.Context, store *pgstore.Store) (*pgBook, error) {
	err := store.InTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, pgBookSchema)
		return err
	})
	return &pgBook{store: store}, err
}

func (p *pgBook) add(ctx context.Context, b *buy, key, taskID string) error {
	doc, err := json.Marshal(b.doc())
	if err != nil {
		return err
	}
	return p.store.InTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO seller_media_buys VALUES ($1, $2, nullif($3, ''), nullif($4, ''), $5, $6)`,
			b.id, b.principal, key, taskID, b.created, doc)
		return err
	})
}

func (p *pgBook) update(ctx context.Context, principal, id string, fn func(b *buy) error) error {
	return p.store.InTx(ctx, func(tx pgx.Tx) error {
		var raw []byte
		err := tx.QueryRow(ctx, `SELECT doc FROM seller_media_buys WHERE id = $1 AND principal = $2 FOR UPDATE`, id, principal).Scan(&raw)
		if errors.Is(err, pgx.ErrNoRows) {
			return errNoBuy
		}
		if err != nil {
			return err
		}
		var d buyDoc
		if err := json.Unmarshal(raw, &d); err != nil {
			return err
		}
		b := d.buy()
		if err := fn(b); err != nil {
			return err
		}
		out, err := json.Marshal(b.doc())
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE seller_media_buys SET doc = $2 WHERE id = $1`, id, out)
		return err
	})
}

func (p *pgBook) each(ctx context.Context, principal string, fn func(b *buy)) error {
	var buys []*buy
	err := p.store.InTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT doc FROM seller_media_buys WHERE principal = $1 ORDER BY created_at, id`, principal)
		if err != nil {
			return err
		}
		docs, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
		if err != nil {
			return err
		}
		for _, raw := range docs {
			var d buyDoc
			if err := json.Unmarshal(raw, &d); err != nil {
				return err
			}
			buys = append(buys, d.buy())
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, b := range buys {
		fn(b)
	}
	return nil
}

func (p *pgBook) seed(ctx context.Context, b *buy) error {
	doc, err := json.Marshal(b.doc())
	if err != nil {
		return err
	}
	return p.store.InTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO seller_media_buys (id, principal, created_at, doc) VALUES ($1, $2, $3, $4)
			ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc WHERE seller_media_buys.principal = EXCLUDED.principal`,
			b.id, b.principal, b.created, doc)
		if err == nil && tag.RowsAffected() == 0 {
			err = errors.New("media buy " + b.id + " exists")
		}
		return err
	})
}

// buyDoc is a buy as pgBook stores it.
type buyDoc struct {
	ID                string                                         `json:"id"`
	Principal         string                                         `json:"principal"`
	Account           string                                         `json:"account,omitempty"`
	Status            string                                         `json:"status"`
	Start             time.Time                                      `json:"start"`
	End               time.Time                                      `json:"end"`
	StartRaw          wire.DateTime                                  `json:"start_raw,omitempty"`
	EndRaw            wire.DateTime                                  `json:"end_raw,omitempty"`
	Currency          string                                         `json:"currency"`
	Packages          []pkgDoc                                       `json:"packages"`
	Created           time.Time                                      `json:"created"`
	Updated           time.Time                                      `json:"updated"`
	Revision          int64                                          `json:"revision"`
	Cancellation      *adcp.GetMediaBuysResponseMediaBuyCancellation `json:"cancellation,omitempty"`
	GovernanceContext string                                         `json:"governance_context,omitempty"`
	Delivered         deliveryTotals                                 `json:"delivered"`
	BudgetSpent       float64                                        `json:"budget_spent,omitempty"`
	Context           adcp.ContextObject                             `json:"context,omitempty"`
	Actions           []lifecycle.AllowedAction                      `json:"actions,omitempty"`
}

type pkgDoc struct {
	ID              string                    `json:"id"`
	ProductID       string                    `json:"product_id"`
	PricingOptionID string                    `json:"pricing_option_id"`
	Budget          float64                   `json:"budget"`
	PricingModel    string                    `json:"pricing_model,omitempty"`
	PricingCurrency string                    `json:"pricing_currency,omitempty"`
	PricingRate     float64                   `json:"pricing_rate,omitempty"`
	Targeting       *adcp.TargetingOverlay    `json:"targeting,omitempty"`
	Measurement     *adcp.MeasurementTerms    `json:"measurement,omitempty"`
	Creatives       []adcp.CreativeAssignment `json:"creatives,omitempty"`
	Paused          bool                      `json:"paused,omitempty"`
	Canceled        bool                      `json:"canceled,omitempty"`
	Context         adcp.ContextObject        `json:"context,omitempty"`
}

func (b *buy) doc() buyDoc {
	d := buyDoc{ID: b.id, Principal: b.principal, Account: b.account, Status: b.status, Start: b.start, End: b.end,
		StartRaw: b.startRaw, EndRaw: b.endRaw, Currency: b.currency, Created: b.created, Updated: b.updated,
		Revision: b.revision, Cancellation: b.cancellation, GovernanceContext: b.governanceContext,
		Delivered: b.delivered, BudgetSpent: b.budgetSpent, Context: b.context, Actions: b.actions, Packages: []pkgDoc{}}
	for _, p := range b.packages {
		d.Packages = append(d.Packages, pkgDoc{ID: p.id, ProductID: p.productID, PricingOptionID: p.pricingOptionID,
			Budget: p.budget, PricingModel: p.pricing.model, PricingCurrency: p.pricing.currency, PricingRate: p.pricing.rate,
			Targeting: p.targeting, Measurement: p.measurement, Creatives: p.creatives, Paused: p.paused, Canceled: p.canceled, Context: p.context})
	}
	return d
}

func (d buyDoc) buy() *buy {
	b := &buy{id: d.ID, principal: d.Principal, account: d.Account, status: d.Status, start: d.Start, end: d.End,
		startRaw: d.StartRaw, endRaw: d.EndRaw, currency: d.Currency, created: d.Created, updated: d.Updated,
		revision: d.Revision, cancellation: d.Cancellation, governanceContext: d.GovernanceContext,
		delivered: d.Delivered, budgetSpent: d.BudgetSpent, context: d.Context, actions: d.Actions}
	for _, p := range d.Packages {
		b.packages = append(b.packages, &pkg{id: p.ID, productID: p.ProductID, pricingOptionID: p.PricingOptionID,
			budget: p.Budget, pricing: price{model: p.PricingModel, currency: p.PricingCurrency, rate: p.PricingRate},
			targeting: p.Targeting, measurement: p.Measurement, creatives: p.Creatives, paused: p.Paused, canceled: p.Canceled, context: p.Context})
	}
	return b
}

// clone is a copy of b whose packages can change without changing b's.
func (b *buy) clone() *buy {
	cp := *b
	cp.packages = make([]*pkg, len(b.packages))
	for i, p := range b.packages {
		pc := *p
		pc.creatives = slices.Clone(p.creatives)
		cp.packages[i] = &pc
	}
	return &cp
}
