// Package retry retries an AdCP operation while it fails with a transient
// error, waiting the seller's retry_after or an exponential backoff with
// jitter, within the attempt and time ceiling AdCP's recovery rules ask
// for (3 attempts and 300 seconds by default).
package retry
