package runtime

// Recovery is an AdCP error's recovery class.
type Recovery string

const (
	// RecoveryTransient: retry after a delay (rate limit, service unavailable).
	RecoveryTransient Recovery = "transient"
	// RecoveryCorrectable: the caller must change the request.
	RecoveryCorrectable Recovery = "correctable"
	// RecoveryTerminal: a human must act; never retry.
	RecoveryTerminal Recovery = "terminal"
)

// Valid reports whether r is one of the three classes.
func (r Recovery) Valid() bool {
	return r == RecoveryTransient || r == RecoveryCorrectable || r == RecoveryTerminal
}

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
func ActionFor(r Recovery) Action {
	switch r {
	case RecoveryTransient:
		return ActionRetry
	case RecoveryCorrectable:
		return ActionSurface
	default:
		return ActionEscalate
	}
}

// resolveRecovery applies the recovery rule: a truthy `recovery` field
// decides (transient, correctable, terminal; any other value is terminal);
// a falsy or absent one defers to the code table, where an unknown code gets
// unknown (terminal when empty).
func resolveRecovery(sent jval, code string, table *CodeTable, unknown Recovery) Recovery {
	if sent.truthy() {
		s, _ := sent.str()
		if r := Recovery(s); r.Valid() {
			return r
		}
		return RecoveryTerminal
	}
	if r, ok := table.Lookup(code); ok {
		return r
	}
	if unknown.Valid() {
		return unknown
	}
	return RecoveryTerminal
}

// Classifier turns an error's recovery into a decision. The zero value uses
// the built-in code table and treats unknown codes as terminal.
type Classifier struct {
	// Codes classifies codes sent without a recovery field; nil means
	// BuiltinCodes.
	Codes *CodeTable
	// UnknownRecovery classifies codes no table lists; "" means terminal,
	// which the published vectors require. Set it to
	// Codes.DefaultUnknownRecovery() to follow a manifest's policy.
	UnknownRecovery Recovery
}

func (c Classifier) table() *CodeTable {
	if c.Codes == nil {
		return builtinTable
	}
	return c.Codes
}

// Recovery classifies a code sent without a usable recovery field.
func (c Classifier) Recovery(code string) Recovery {
	return resolveRecovery(nil, code, c.table(), c.UnknownRecovery)
}
