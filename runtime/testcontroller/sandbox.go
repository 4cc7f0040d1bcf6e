package testcontroller

import (
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// AccountSandbox reads the account a call names (its top-level "account"
// member, an AdCP account reference): named reports whether there is one,
// and sandbox whether it is marked "sandbox": true. A reference by
// account_id says nothing of the sandbox; the seller knows its accounts.
// Over MCP, buyers built on the JavaScript SDK leave out the members a
// tool's input schema does not declare, and AdCP 3.0's
// comply_test_controller declares no account: a Sandbox function should
// not insist on one there.
func AccountSandbox(c *seller.Call) (named, sandbox bool) {
	a := wire.Lenient(c.Member("account"))
	if !a.IsObject() {
		return false, false
	}
	return true, string(a.Get("sandbox")) == "true"
}
