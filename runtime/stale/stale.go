// Package stale builds STALE_RESPONSE (AdCP 3.1 and later): the advisory
// a seller puts beside a payload it served from a cached result because an
// upstream or sub-agent could not be reached.
//
// The rules of the code: it is emitted only when the payload is non-empty
// and its cache entry is older than the seller's freshness target for the
// surface (a fresh cache hit, or no cache at all, is no such case); it
// rides in the payload's errors[], never as the envelope's adcp_error, the
// transport staying a success; one entry per stale upstream, each with
// error-details/stale-response.json's details.
package stale

import (
	"math"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// CodeStaleResponse is the advisory's error code.
const CodeStaleResponse = "STALE_RESPONSE"

// Upstream names the dependency whose fetch failed: its URL when it is
// HTTP-addressable (omitted for an internal dependency), else a name.
type Upstream struct {
	URL  string `json:"url,omitempty"`
	Name string `json:"name,omitempty"`
}

// Cause is the underlying failure, at its most minimal: a code
// (SERVICE_UNAVAILABLE, TIMEOUT) and a short message, never credentials,
// internal hostnames or stack traces.
type Cause struct {
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// AdvisoryDetails is the advisory's details (error-details/stale-response.json).
type AdvisoryDetails struct {
	ServedFromCache        bool      `json:"served_from_cache"`
	CacheAgeSeconds        int64     `json:"cache_age_seconds"`
	FreshnessTargetSeconds *int64    `json:"freshness_target_seconds,omitempty"`
	Upstream               *Upstream `json:"upstream,omitempty"`
	OriginalError          *Cause    `json:"original_error,omitempty"`
}

// Served is a payload part served from cache.
type Served struct {
	// Field is the payload path it fills ("products", "formats").
	Field string
	// CacheAge is the cache entry's age; FreshnessTarget the seller's
	// target for the surface (0: any cached entry is stale).
	CacheAge, FreshnessTarget time.Duration
	// Upstream is the dependency that failed; Cause, when known, how.
	Upstream Upstream
	Cause    *Cause
}

// Advisory returns the STALE_RESPONSE entry for the payload's errors[]:
// nil when the release defines no such code (3.0), or when the entry is
// within its freshness target, where the code must not be sent. Ages are
// whole seconds, rounded up.
func Advisory(sp *registry.Spec, s Served) *adcperr.Error {
	recovery, ok := sp.Recovery(CodeStaleResponse)
	if !ok || s.CacheAge <= s.FreshnessTarget {
		return nil
	}
	d := AdvisoryDetails{ServedFromCache: true, CacheAgeSeconds: seconds(s.CacheAge), OriginalError: s.Cause}
	if s.FreshnessTarget > 0 {
		t := seconds(s.FreshnessTarget)
		d.FreshnessTargetSeconds = &t
	}
	if s.Upstream != (Upstream{}) {
		u := s.Upstream
		d.Upstream = &u
	}
	message := "Served from cache"
	if name := s.Upstream.Name; name != "" {
		message += ": upstream " + name + " is unreachable"
	} else if s.Upstream.URL != "" {
		message += ": upstream " + s.Upstream.URL + " is unreachable"
	}
	return &adcperr.Error{Code: CodeStaleResponse, Message: message, Field: s.Field, Recovery: recovery, Details: d}
}

// seconds is d in whole seconds, rounded up.
func seconds(d time.Duration) int64 {
	return int64(math.Ceil(d.Seconds()))
}
