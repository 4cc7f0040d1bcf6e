package wire

import (
	"time"
)

// Nullable is a value that may be JSON null. As a field it has three states:
// absent (the zero Nullable), null, or a value.
type Nullable[T any] struct {
	value T
	state uint8 // 0 absent, 1 null, 2 value
}

// Some returns a Nullable holding v.
func Some[T any](v T) Nullable[T] { return Nullable[T]{value: v, state: 2} }

// Null returns a Nullable holding JSON null.
func Null[T any]() Nullable[T] { return Nullable[T]{state: 1} }

// Get returns the value and whether there is one (false for null and absent).
func (n Nullable[T]) Get() (T, bool) { return n.value, n.state == 2 }

// IsNull reports an explicit JSON null.
func (n Nullable[T]) IsNull() bool { return n.state == 1 }

// IsAbsent reports a field that was not present.
func (n Nullable[T]) IsAbsent() bool { return n.state == 0 }

// DateTime is an RFC 3339 date-time kept as the exact string received, so
// it re-encodes byte for byte; Time parses it.
type DateTime string

// Time parses the date-time (RFC 3339, as JSON Schema's date-time format).
func (t DateTime) Time() (time.Time, error) { return time.Parse(time.RFC3339Nano, string(t)) }

// DateTimeOf formats t as a DateTime.
func DateTimeOf(t time.Time) DateTime { return DateTime(t.Format(time.RFC3339Nano)) }

// Date is a full-date (YYYY-MM-DD) kept as received.
type Date string

// Time parses the date as midnight UTC.
func (d Date) Time() (time.Time, error) { return time.Parse(time.DateOnly, string(d)) }
