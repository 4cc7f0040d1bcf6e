// Package sellergov is campaign governance from the seller's side. A buyer
// registers its governance agents on an account with sync_governance; the
// seller must then consult them before committing spend
// (create_media_buy and the like) and act on the verdict:
//
//   - Registry keeps the agents per principal and account, with
//     sync_governance's replace semantics (the credentials are write-only:
//     they are kept to call the agent with and never sent back);
//   - Checker calls an agent's check_governance through adcpgen's own
//     client (runtime/buyer: strict on the agent's bytes, retries within
//     AdCP's ceilings) and reads its verdict in the version's shape
//     (3.0's status, 3.1's verdict);
//   - Govern runs the protocol's loop: approved proceeds; conditions are
//     applied by the seller (a callback) and checked again with the
//     governance context, as the spec asks; denied is the error
//     GOVERNANCE_DENIED with the agent's findings; an agent that cannot be
//     reached or answers garbage is GOVERNANCE_UNAVAILABLE (transient).
//
// The agent's URL is the buyer's: connections go through a Dialer the
// seller supplies (runtime/mcpclient over untrusted.NewHTTPClient, which
// refuses internal addresses), so this package depends on no SDK.
//
// ExampleChecker_Govern consults a governance agent during
// create_media_buy and acts on its verdict.
package sellergov
