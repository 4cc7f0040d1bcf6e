package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
	"strings"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Canonical builds (AdCP 3.1). From 3.1 a creative agent declares what
// build_creative produces as creative.supported_formats in its
// capabilities: canonical format declarations, each with an agent-local
// capability_id the buyer names as the build target (target_format_id's
// id). This seller builds one: a 300x250 image for a brief, drawn as a
// placeholder it serves itself (/built/{capability}.png).

// buildCapability is a canonical format this seller builds.
type buildCapability struct {
	id            string
	width, height int
}

// buildCapabilities are the seller's canonical builds, in the order it
// advertises them.
var buildCapabilities = []buildCapability{{id: "image_300x250", width: 300, height: 250}}

// findBuildCapability is the canonical build named id, or nil.
func findBuildCapability(id string) *buildCapability {
	for i := range buildCapabilities {
		if buildCapabilities[i].id == id {
			return &buildCapabilities[i]
		}
	}
	return nil
}

// supportedFormats is creative.supported_formats: each build with its
// image slot (operations, 3.2's, says build only; 3.1 admits the member).
func supportedFormats() []any {
	out := make([]any, 0, len(buildCapabilities))
	for _, c := range buildCapabilities {
		out = append(out, map[string]any{"capability_id": c.id, "operations": []string{"build"},
			"format": map[string]any{"format_kind": "image", "params": map[string]any{"width": c.width, "height": c.height,
				"slots": []any{map[string]any{"asset_group_id": "image_main", "asset_type": "image", "required": true}}}}})
	}
	return out
}

// withSupportedFormats adds creative.supported_formats to a release's
// capabilities base (3.1 and later: 3.0 has no canonical builds).
func withSupportedFormats(caps json.RawMessage) (json.RawMessage, error) {
	var c map[string]json.RawMessage
	if err := json.Unmarshal(caps, &c); err != nil {
		return nil, err
	}
	formats, err := json.Marshal(supportedFormats())
	if err != nil {
		return nil, err
	}
	creative, ok := wire.Lenient(c["creative"]).WithMember("supported_formats", formats)
	if !ok {
		return nil, errors.New("the capabilities' creative block is not a JSON object")
	}
	c["creative"] = creative
	return json.Marshal(c)
}

// buildCanonical builds the canonical capability c: its manifest names
// the format canonical_image, which the edge of 3.1 and later turns into
// format_kind (canonicalBuild).
func (s *sales) buildCanonical(c *buildCapability) (*adcp.BuildCreativeResult, error) {
	out, err := typed[adcp.BuildCreativeResponse](map[string]any{
		"creative_manifest": map[string]any{"format_id": map[string]string{"agent_url": s.baseURL, "id": "canonical_image"},
			"assets": map[string]any{"image_main": map[string]any{"asset_type": "image", "url": s.baseURL + "/built/" + c.id + ".png", "width": c.width, "height": c.height}}},
	})
	if err != nil {
		return nil, err
	}
	return &adcp.BuildCreativeResult{Message: "Built a " + strconv.Itoa(c.width) + "x" + strconv.Itoa(c.height) + " image.", Response: out}, nil
}

// formatNotSupported refuses a build target that is neither an advertised
// capability nor a format this seller builds (3.1's FORMAT_NOT_SUPPORTED:
// the buyer picks an advertised capability_id), pointing at the member
// the buyer named it in.
func formatNotSupported(target adcp.FormatID) error {
	field := "target_format_id"
	if target.AgentURL == capabilityRoute {
		field = "target_capability_id"
	}
	return &adcperr.Error{Code: "FORMAT_NOT_SUPPORTED", Recovery: registry.Recovery("correctable"), Field: field,
		Message: "This agent builds no format " + strconv.Quote(target.ID) + ": name a capability_id of creative.supported_formats"}
}

// capabilityRoute is the agent_url of the target_format_id a 3.2
// target_capability_id reaches the 3.0.26 handler as (capabilityTarget):
// the capability is this agent's own.
const capabilityRoute = "urn:adcpgen:capability"

// capabilityTarget makes 3.2's build_creative target_capability_id
// readable as 3.0's target_format_id (capabilityRoute).
func capabilityTarget(args json.RawMessage) (json.RawMessage, error) {
	v := wire.Lenient(args)
	id := v.Get("target_capability_id")
	if !id.Present() || v.Get("target_format_id").Present() {
		return args, nil
	}
	out, ok := v.WithoutMember("target_capability_id")
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	target, err := json.Marshal(map[string]json.RawMessage{"agent_url": objectJSON(capabilityRoute), "id": id.Raw()})
	if err != nil {
		return nil, err
	}
	out, _ = wire.Lenient(out).WithMember("target_format_id", target)
	return out, nil
}

// serveBuilt serves GET /built/{capability}.png: the capability's
// placeholder image, a solid PNG of its size.
func serveBuilt(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	c := findBuildCapability(strings.TrimSuffix(name, ".png"))
	if c == nil || !strings.HasSuffix(name, ".png") {
		http.NotFound(w, r)
		return
	}
	img := image.NewUniform(color.RGBA{R: 0x2e, G: 0x7d, B: 0x32, A: 0xff})
	var b bytes.Buffer
	if err := png.Encode(&b, boundedImage{img, image.Rect(0, 0, c.width, c.height)}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	_, _ = w.Write(b.Bytes())
}

// boundedImage is an image with bounds of its own.
type boundedImage struct {
	image.Image
	r image.Rectangle
}

func (b boundedImage) Bounds() image.Rectangle { return b.r }

// canonicalBuild turns a completed build_creative answer's canonical
// manifest (format_id canonical_<kind>, buildCanonical's) into 3.1's
// canonical manifest (format_kind, no format_id).
func canonicalBuild(status task.Status, p json.RawMessage) (json.RawMessage, error) {
	if status != task.Completed {
		return p, nil
	}
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(p, &resp); err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(resp["creative_manifest"], &m) != nil || m == nil {
		return p, nil
	}
	var fid struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(m["format_id"], &fid) != nil || !strings.HasPrefix(fid.ID, "canonical_") {
		return p, nil
	}
	delete(m, "format_id")
	m["format_kind"] = objectJSON(formatKind(fid.ID))
	resp["creative_manifest"] = objectJSON(m)
	return json.Marshal(resp)
}
