// Package upstream turns a seller's failed call to one of its own upstream
// services (an ad server, a database, another agent) into the AdCP error
// the buyer sees, without leaking anything about the upstream: Translate.
//
// runtime/seller applies it to every error a handler returns that is not
// an *adcperr.Error, so a handler may return a *Failure (NewFailure reads
// it from the upstream's response) and the buyer gets RATE_LIMITED with
// the upstream's Retry-After, or SERVICE_UNAVAILABLE.
package upstream
