package sellertask

import (
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// AdCP 3.1 and later let the status tools name an account (get_task_status
// and list_tasks' account), and sellers must scope task reconciliation to
// the authenticated account and principal pair: a task started for
// another account of the same principal is reported exactly like a
// missing one. A task is the account's its request named; a call or a
// task that names none is not narrowed (3.0's tasks/get has no account).

// ofAccount reports whether t belongs to account, the status call's
// account member (absent: any).
func ofAccount(t sellerstore.Task, account wire.Lenient) bool {
	if !account.IsObject() || len(t.Request) == 0 {
		return true
	}
	args, err := wire.ParseLenient(t.Request)
	if err != nil {
		return true
	}
	own := args.Get("account")
	if !own.IsObject() {
		return true
	}
	return sameAccount(own, account)
}

// sameAccount compares two account references (core/account-ref.json):
// by account_id when both have one, by brand (domain and brand_id) and
// operator when both name a brand; references of the two kinds are not
// told apart here (resolving one to the other is the seller's).
func sameAccount(a, b wire.Lenient) bool {
	str := func(v wire.Lenient, path ...string) string {
		for _, p := range path {
			v = v.Get(p)
		}
		s, _ := v.AsString()
		return s
	}
	if id := str(b, "account_id"); id != "" && str(a, "account_id") != "" {
		return id == str(a, "account_id")
	}
	if str(a, "brand", "domain") == "" || str(b, "brand", "domain") == "" {
		return true
	}
	return str(a, "brand", "domain") == str(b, "brand", "domain") &&
		str(a, "brand", "brand_id") == str(b, "brand", "brand_id") &&
		str(a, "operator") == str(b, "operator")
}
