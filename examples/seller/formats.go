package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/pagination"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Creative formats. The seller accepts the standard formats of AdCP's
// reference creative agent (defaultFormatAgent), which its products name.
// In a sandbox, the compliance runner may seed formats
// (seed_creative_format) and expects exactly those listed, one page at a
// time: once it has seeded any, list_creative_formats lists the seeded
// ones; a format_ids filter still finds every format the products use.

// standardFormats are the formats this seller accepts, by id, with the
// assets a creative of each must carry.
var standardFormats = []struct {
	id, name, description string
	assets                []adcp.FormatAsset
}{
	{"display_300x250", "Medium rectangle", "Static or animated display, 300x250.", []adcp.FormatAsset{imageAsset("image")}},
	{"display_728x90", "Leaderboard", "Static or animated display, 728x90.", []adcp.FormatAsset{imageAsset("image")}},
	{"display_static", "Static display", "A static image in any standard IAB size.", []adcp.FormatAsset{imageAsset("image")}},
	{"video_15s", "Video, 15 seconds", "Pre-roll video, 15 seconds, 16:9.", []adcp.FormatAsset{videoAsset("video")}},
	{"video_30s", "Video, 30 seconds", "Pre-roll and CTV video, 30 seconds, 16:9.", []adcp.FormatAsset{videoAsset("video")}},
	{"vast_30s", "VAST tag, 30 seconds", "A VAST 4 tag wrapping a 30 second video.", []adcp.FormatAsset{
		adcp.NewFormatAssetIndividualVASTAsset(adcp.IndividualVASTAsset{AssetID: "vast_tag", Required: true})}},
	{"native_content", "Native content card", "Headline, image and body in the publisher's feed.", []adcp.FormatAsset{textAsset("headline"), imageAsset("image"), textAsset("body")}},
	{"native_post", "Native post", "Headline, image and click-through in a social-style post.", []adcp.FormatAsset{textAsset("headline"), imageAsset("image"), urlAsset("click_url")}},
}

func imageAsset(id string) adcp.FormatAsset {
	return adcp.NewFormatAssetIndividualImageAsset(adcp.IndividualImageAsset{AssetID: id, Required: true})
}

func videoAsset(id string) adcp.FormatAsset {
	return adcp.NewFormatAssetIndividualVideoAsset(adcp.IndividualVideoAsset{AssetID: id, Required: true})
}

func textAsset(id string) adcp.FormatAsset {
	return adcp.NewFormatAssetIndividualTextAsset(adcp.IndividualTextAsset{AssetID: id, Required: true})
}

func urlAsset(id string) adcp.FormatAsset {
	return adcp.NewFormatAssetIndividualURLAsset(adcp.IndividualURLAsset{AssetID: id, Required: true})
}

// formats are the seeded sandbox formats, in seeding order.
type formats struct {
	mu     sync.Mutex
	seeded []adcp.Format
}

// all are the formats the seller knows: the standard ones, then those of
// its products that are not, then the seeded ones.
func (s *sales) allFormats() []adcp.Format {
	var out []adcp.Format
	seen := map[string]bool{}
	add := func(f adcp.Format) {
		k := f.FormatID.AgentURL + "|" + f.FormatID.ID
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	for _, f := range standardFormats {
		add(adcp.Format{FormatID: adcp.FormatID{AgentURL: defaultFormatAgent, ID: f.id}, Name: f.name, Description: ptr(f.description), Assets: f.assets})
	}
	for _, p := range s.catalog.all() {
		for _, id := range p.FormatIDs {
			add(adcp.Format{FormatID: adcp.FormatID{AgentURL: id.AgentURL, ID: id.ID}, Name: id.ID})
		}
	}
	s.formats.mu.Lock()
	for _, f := range s.formats.seeded {
		add(f)
	}
	s.formats.mu.Unlock()
	return out
}

// listCreativeFormats answers the formats (see above), filtered by id,
// name and size, a page at a time. A format_ids filter answers each format
// with the format id exactly as the buyer sent it.
func (s *sales) listCreativeFormats(ctx context.Context, req *adcp.MediaBuyListCreativeFormatsRequest) (*adcp.MediaBuyListCreativeFormatsResponse, error) {
	var list []adcp.Format
	s.formats.mu.Lock()
	seeded := slices.Clone(s.formats.seeded)
	s.formats.mu.Unlock()
	switch {
	case len(req.FormatIDs) > 0:
		all := s.allFormats()
		for _, want := range req.FormatIDs {
			for _, f := range all {
				if f.FormatID.ID == want.ID && strings.EqualFold(strings.TrimRight(f.FormatID.AgentURL, "/"), strings.TrimRight(want.AgentURL, "/")) {
					f.FormatID = want
					list = append(list, f)
					break
				}
			}
		}
	case len(seeded) > 0 && s.sandbox:
		list = seeded
	default:
		list = s.allFormats()
	}
	if req.NameSearch != nil {
		var named []adcp.Format
		for _, f := range list {
			if strings.Contains(strings.ToLower(f.Name), strings.ToLower(*req.NameSearch)) {
				named = append(named, f)
			}
		}
		list = named
	}
	page, err := pagination.Slice(list, func(f adcp.Format) string { return f.FormatID.AgentURL + "|" + f.FormatID.ID }, pageRequest(ctx, req.Pagination))
	if err != nil {
		return nil, err
	}
	resp := &adcp.MediaBuyListCreativeFormatsResponse{Formats: page.Items, Pagination: pageResponse(page.Response())}
	if resp.Formats == nil {
		resp.Formats = []adcp.Format{}
	}
	return resp, nil
}

// seedFormat adds a sandbox format (seed_creative_format): its id under
// the default creative agent, its name from the fixture.
func (s *sales) seedFormat(id string, fixture json.RawMessage) {
	f := wire.Lenient(fixture)
	name, ok := f.Get("name").AsString()
	if !ok || name == "" {
		name = id
	}
	format := adcp.Format{FormatID: adcp.FormatID{AgentURL: defaultFormatAgent, ID: id}, Name: name}
	if d, ok := f.Get("description").AsString(); ok && d != "" {
		format.Description = &d
	}
	s.formats.mu.Lock()
	defer s.formats.mu.Unlock()
	for i, existing := range s.formats.seeded {
		if existing.FormatID.ID == id {
			s.formats.seeded[i] = format
			return
		}
	}
	s.formats.seeded = append(s.formats.seeded, format)
}
