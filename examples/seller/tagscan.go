package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"example.com/seller/adcp"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Hosted-tag policies. A product may enforce registry policies
// (enforced_policies); two of them this seller checks itself, by
// fetching a creative's hosted tag and reading it, as a governance
// scanner would: creative_security_auto_redirect (the tag navigates the
// page without user interaction) and creative_security_https_only (the
// tag is served over, or requests, plain http from a secure context).
// As with provenance (provenance.go), a sync is held to the policies of
// the products the account discovered last. Each violated policy is its
// own CREATIVE_REJECTED entry naming it (details.policy_id), the
// interoperable result however detection is done. A tag that cannot be
// fetched is not judged: the creative waits in pending_review.

const (
	policyAutoRedirect = "creative_security_auto_redirect"
	policyHTTPSOnly    = "creative_security_https_only"
	maxTagBytes        = 512 << 10
)

// scannedPolicies are the enforced policies tagScanner checks.
var scannedPolicies = []string{policyAutoRedirect, policyHTTPSOnly}

var (
	// locationWrite navigates the page: an assignment to location (or its
	// href) or a call of location.replace or location.assign.
	locationWrite = regexp.MustCompile(`\blocation(?:\.href)?\s*=[^=]|\blocation\.(?:replace|assign)\s*\(`)
	// userGesture registers a handler of a user's gesture, the only thing
	// that may trigger a navigation.
	userGesture = regexp.MustCompile(`addEventListener\(\s*["'](?:click|touchend|pointerup|mouseup|keydown)["']|\bon(?:click|touchend|pointerup|mouseup|keydown)\s*=`)
	// insecureURL is a plain-http URL in a string literal.
	insecureURL = regexp.MustCompile("[\"'`]http://[^\"'`\\s]+")
)

// tagScanner fetches hosted tags with a client for counterparty URLs.
type tagScanner struct {
	client *http.Client
}

// hostedTags lists a creative's hosted tags (as sent): each asset that is
// a URL of a script (url_type tracker_script) or a JavaScript asset with a
// url, by its slot.
func hostedTags(creative wire.Lenient) map[string]string {
	out := map[string]string{}
	creative.Get("assets").Members(func(k, a wire.Lenient) bool {
		slot, _ := k.AsString()
		u, ok := a.Get("url").AsString()
		if ok && (a.Get("asset_type").StringIs("url") && a.Get("url_type").StringIs("tracker_script") || a.Get("asset_type").StringIs("javascript")) {
			out[slot] = u
		}
		return true
	})
	return out
}

// check returns an error entry per policy of enforced the creative's
// hosted tags violate (at is the creative's path), and whether every tag
// could be read.
func (ts *tagScanner) check(ctx context.Context, enforced []string, creative wire.Lenient, at string) (errs []adcp.Error, judged bool) {
	tags := hostedTags(creative)
	slots := make([]string, 0, len(tags))
	for slot := range tags {
		slots = append(slots, slot)
	}
	slices.Sort(slots)
	judged = true
	for _, slot := range slots {
		url := tags[slot]
		body, err := ts.fetch(ctx, url)
		if err != nil {
			judged = false
			continue
		}
		field := fmt.Sprintf("%s.assets.%s.url", at, slot)
		for _, id := range enforced {
			if why := violation(id, url, body); why != "" {
				errs = append(errs, adcp.Error{Code: "CREATIVE_REJECTED", Message: "The hosted tag violates " + id + ": " + why, Field: &field,
					Recovery: ptr(adcp.ErrorRecovery("correctable")), Details: map[string]json.RawMessage{
						"policy_id": objectJSON(id), "reasons": objectJSON([]string{why})}})
			}
		}
	}
	return errs, judged
}

// violation says why a tag served from url with body violates policy id,
// "" when it does not (or the policy is not one this seller checks).
func violation(id, url string, body []byte) string {
	switch id {
	case policyAutoRedirect:
		if locationWrite.Match(body) && !userGesture.Match(body) {
			return "it navigates the page without user interaction"
		}
	case policyHTTPSOnly:
		if m := insecureURL.Find(body); m != nil {
			return "it requests " + string(m[1:]) + " over plain http"
		}
		if strings.HasPrefix(url, "http://") {
			return "it is served over plain http"
		}
	}
	return ""
}

// fetch reads a tag, at most maxTagBytes, within 10 seconds.
func (ts *tagScanner) fetch(ctx context.Context, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := ts.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("tag %s: HTTP %d", url, resp.StatusCode)
	}
	return io.ReadAll(io.LimitReader(resp.Body, maxTagBytes))
}
