package main

import (
	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/seller"
)

// serve registers the seller's tools: every tool of the two protocols it
// declares, media_buy and creative (AdCP 3.0.26's manifest), and the
// account tools they rely on. A buyer or a conformance fuzzer calling any
// tool of those protocols meets an answer, never an unknown tool.
func (s *sales) serve(srv *seller.Server) {
	// Accounts and governance.
	seller.HandleSync(srv, adcp.Tools.SyncAccounts, s.syncAccounts)
	seller.HandleSync(srv, adcp.Tools.ListAccounts, s.listAccounts)
	seller.HandleSync(srv, adcp.Tools.SyncGovernance, s.syncGovernance)
	// Media buy: products and proposals, the buy's lifecycle, delivery.
	seller.Handle(srv, adcp.Tools.GetProducts, s.getProducts)
	seller.Handle(srv, adcp.Tools.CreateMediaBuy, s.createMediaBuy)
	seller.HandleSync(srv, adcp.Tools.GetMediaBuys, s.getMediaBuys)
	seller.Handle(srv, adcp.Tools.UpdateMediaBuy, s.updateMediaBuy)
	seller.HandleSync(srv, adcp.Tools.GetMediaBuyDelivery, s.getMediaBuyDelivery)
	seller.HandleSync(srv, adcp.Tools.ListCreativeFormats, s.listCreativeFormats)
	seller.Handle(srv, adcp.Tools.BuildCreative, s.buildCreative)
	seller.HandleSync(srv, adcp.Tools.ProvidePerformanceFeedback, s.providePerformanceFeedback)
	seller.HandleSync(srv, adcp.Tools.SyncAudiences, s.syncAudiences)
	seller.Handle(srv, adcp.Tools.SyncCatalogs, s.syncCatalogs)
	seller.HandleSync(srv, adcp.Tools.SyncEventSources, s.syncEventSources)
	seller.HandleSync(srv, adcp.Tools.LogEvent, s.logEvent)
	// Creative: the library, previews, features and delivery.
	seller.Handle(srv, adcp.Tools.SyncCreatives, s.syncCreatives)
	seller.HandleSync(srv, adcp.Tools.ListCreatives, s.listCreatives)
	seller.HandleSync(srv, adcp.Tools.PreviewCreative, s.previewCreative)
	seller.HandleSync(srv, adcp.Tools.GetCreativeDelivery, s.getCreativeDelivery)
	seller.HandleSync(srv, adcp.Tools.GetCreativeFeatures, s.getCreativeFeatures)
}
