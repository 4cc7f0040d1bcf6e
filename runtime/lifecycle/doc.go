// Package lifecycle holds the legal transitions of the entities AdCP gives
// a lifecycle status, so sellers do not hand-write them: media buys
// (enums/media-buy-status.json), creatives (creative-status.json) and
// accounts (account-status.json), with the answers AdCP asks for when a
// buyer's update_media_buy cannot apply (INVALID_STATE, NOT_CANCELLABLE)
// and the transitions a sandbox test controller may force (an error here
// is its INVALID_TRANSITION).
//
// The graphs are the lifecycles the status enums describe (AdCP 3.0.26 to
// 3.2), as the official compliance runner checks them across a run
// (status.monotonic): a media buy waits for creatives, then its flight,
// runs, may pause (and resumes active), and ends completed, rejected or
// canceled, never to move again nor back to waiting; cancellation is
// irreversible; an archived creative may only be unarchived (back to
// approved), a rejected one resubmitted; rejected and closed accounts are
// final. 3.1's suspended creative status is included; a version whose
// enum lacks a status never sends it.
//
// From AdCP 3.1 a product may declare which mutations its buys may make,
// in which mode and status (allowed_actions[]): Available resolves that
// template into a buy's available_actions[] in its current status, and
// CheckActions holds a direct update to it (ACTION_NOT_ALLOWED, with the
// reason and the actions available, when it asks for what requires
// approval, what the status does not permit or what the product never
// offers).
//
// The package example cancels and pauses buys along the graph.
package lifecycle
