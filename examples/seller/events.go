package main

import (
	"context"
	"fmt"
	"sync"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
)

// The rest of the media-buy protocol: audiences, catalogs and event
// sources a buyer syncs, the conversion events it logs, and the
// performance feedback it gives on a buy. This seller records them per
// account and acknowledges them; it has no optimizer to feed.

// records are the synced audiences, catalogs and event sources, by
// principal and account key, and the events logged per event source.
type records struct {
	mu     sync.Mutex
	synced map[string]bool // principal|account|kind|id
	events map[string]int  // principal|event source id
}

func newRecords() *records { return &records{synced: map[string]bool{}, events: map[string]int{}} }

// upsert records id of kind and reports whether it was new.
func (r *records) upsert(principal, account, kind, id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := principal + "|" + account + "|" + kind + "|" + id
	created := !r.synced[k]
	r.synced[k] = true
	return created
}

func action(created bool) string {
	if created {
		return "created"
	}
	return "updated"
}

func (s *sales) syncAudiences(ctx context.Context, req *adcp.SyncAudiencesRequest) (*adcp.SyncAudiencesResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	account, _ := s.accounts.key(p.ID, req.Account)
	out := []any{}
	for _, a := range req.Audiences {
		out = append(out, map[string]any{"audience_id": a.AudienceID, "action": action(s.records.upsert(p.ID, account, "audience", a.AudienceID))})
	}
	return typed[adcp.SyncAudiencesResponse](map[string]any{"audiences": out})
}

func (s *sales) syncCatalogs(ctx context.Context, req *adcp.SyncCatalogsRequest) (*adcp.SyncCatalogsResult, error) {
	p, _ := seller.PrincipalFrom(ctx)
	account, _ := s.accounts.key(p.ID, req.Account)
	out := []any{}
	for i, c := range req.Catalogs {
		id := fmt.Sprintf("catalog_%d", i+1)
		if c.CatalogID != nil {
			id = *c.CatalogID
		}
		out = append(out, map[string]any{"catalog_id": id, "action": action(s.records.upsert(p.ID, account, "catalog", id))})
	}
	resp, err := typed[adcp.SyncCatalogsResponse](map[string]any{"catalogs": out})
	if err != nil {
		return nil, err
	}
	return &adcp.SyncCatalogsResult{Message: fmt.Sprintf("%d catalogs synced.", len(out)), Response: resp}, nil
}

func (s *sales) syncEventSources(ctx context.Context, req *adcp.SyncEventSourcesRequest) (*adcp.SyncEventSourcesResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	account, _ := s.accounts.key(p.ID, req.Account)
	out := []any{}
	for _, e := range req.EventSources {
		s.records.upsert(p.ID, "", "event_source", e.EventSourceID) // log_event names sources without an account
		out = append(out, map[string]any{"event_source_id": e.EventSourceID, "managed_by": "buyer",
			"action": action(s.records.upsert(p.ID, account, "event_source", e.EventSourceID))})
	}
	return typed[adcp.SyncEventSourcesResponse](map[string]any{"event_sources": out})
}

// logEvent takes events for a synced event source; events for a source
// this buyer never synced are REFERENCE_NOT_FOUND.
func (s *sales) logEvent(ctx context.Context, req *adcp.LogEventRequest) (*adcp.LogEventResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	s.records.mu.Lock()
	known := s.records.synced[p.ID+"||event_source|"+req.EventSourceID]
	if known {
		s.records.events[p.ID+"|"+req.EventSourceID] += len(req.Events)
	}
	s.records.mu.Unlock()
	if !known {
		return nil, refuse("REFERENCE_NOT_FOUND", "No event source "+req.EventSourceID+" was synced (sync_event_sources)", "event_source_id")
	}
	return typed[adcp.LogEventResponse](map[string]any{"events_received": len(req.Events), "events_processed": len(req.Events)})
}

// providePerformanceFeedback takes feedback on one of the buyer's buys.
func (s *sales) providePerformanceFeedback(ctx context.Context, req *adcp.ProvidePerformanceFeedbackRequest) (*adcp.ProvidePerformanceFeedbackResponse, error) {
	p, _ := seller.PrincipalFrom(ctx)
	found := false
	if err := s.buys.each(ctx, p.ID, func(b *buy) { found = found || b.id == req.MediaBuyID }); err != nil {
		return nil, err
	}
	if !found {
		return nil, notFound(req.MediaBuyID, errNoBuy)
	}
	return typed[adcp.ProvidePerformanceFeedbackResponse](map[string]any{"success": true})
}
