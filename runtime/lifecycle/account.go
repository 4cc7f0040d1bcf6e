package lifecycle

// Account statuses.
const (
	AccountActive          = "active"
	AccountPendingApproval = "pending_approval"
	AccountRejected        = "rejected"
	AccountPaymentRequired = "payment_required"
	AccountSuspended       = "suspended"
	AccountClosed          = "closed"
)

// AccountStatuses are the account statuses.
var AccountStatuses = []string{AccountActive, AccountPendingApproval, AccountRejected, AccountPaymentRequired, AccountSuspended, AccountClosed}

// accountMoves: a pending account is approved or rejected; an active one
// may be suspended, lack payment or close; a suspended or unpaid one
// returns to active or closes. Rejected and closed are final.
var accountMoves = map[string][]string{
	AccountPendingApproval: {AccountActive, AccountRejected},
	AccountActive:          {AccountSuspended, AccountPaymentRequired, AccountClosed},
	AccountSuspended:       {AccountActive, AccountPaymentRequired, AccountClosed},
	AccountPaymentRequired: {AccountActive, AccountSuspended, AccountClosed},
}

// AccountMove checks an account's transition (force_account_status).
func AccountMove(from, to string) error {
	return force("account", AccountStatuses, accountMoves, from, to)
}

// AccountOperable reports whether an account in status may transact
// (create or change media buys): only an active one. Others get the code
// AdCP names for their state (ACCOUNT_SUSPENDED, ACCOUNT_PAYMENT_REQUIRED,
// ACCOUNT_SETUP_REQUIRED for one pending approval, ACCOUNT_NOT_FOUND for a
// closed or rejected one).
func AccountOperable(status string) (ok bool, code string) {
	switch status {
	case AccountActive:
		return true, ""
	case AccountSuspended:
		return false, "ACCOUNT_SUSPENDED"
	case AccountPaymentRequired:
		return false, "ACCOUNT_PAYMENT_REQUIRED"
	case AccountPendingApproval:
		return false, "ACCOUNT_SETUP_REQUIRED"
	}
	return false, "ACCOUNT_NOT_FOUND"
}
