package adcperr

import "github.com/adcpgen/adcpgen/runtime/registry"

// Action is what a buyer does with an extraction's outcome.
type Action string

const (
	// ActionRetry: transient error; retry after RetryAfter or a backoff.
	ActionRetry Action = "retry"
	// ActionSurface: correctable error; show field and suggestion to the
	// caller, do not retry automatically.
	ActionSurface Action = "surface_to_caller"
	// ActionEscalate: terminal error; hand it to a human.
	ActionEscalate Action = "escalate_to_human"
	// ActionGeneric: a failure without a usable structured AdCP error; fall
	// back to generic error handling.
	ActionGeneric Action = "generic_error"
)

// ActionFor maps a recovery class to its action. Anything but transient or
// correctable escalates.
func ActionFor(r registry.Recovery) Action {
	switch r {
	case registry.Transient:
		return ActionRetry
	case registry.Correctable:
		return ActionSurface
	default:
		return ActionEscalate
	}
}
