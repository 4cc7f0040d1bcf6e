package sellerstore

import "time"

// Clock tells a store the time. Tests inject a fake one to move leases and
// replay windows forward without sleeping.
type Clock interface {
	Now() time.Time
}

// SystemClock is the Clock of the machine.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }
