// Package lifecycle holds the legal transitions of the entities AdCP gives
// a lifecycle status, so sellers do not hand-write them: media buys
// (enums/media-buy-status.json), creatives (creative-status.json) and
// accounts (account-status.json), with the answers AdCP asks for when a
// buyer's update_media_buy cannot apply (INVALID_STATE, NOT_CANCELLABLE)
// and the transitions a sandbox test controller may force (an error here
// is its INVALID_TRANSITION).
//
// The rules are the enum descriptions' of AdCP 3.0.26 to 3.2: completed,
// rejected and canceled media buys are final, and cancellation is
// irreversible; a paused buy resumes where it would otherwise be; an
// archived creative may only be unarchived (back to approved), a rejected
// one resubmitted (back to processing); rejected and closed accounts are
// final. 3.1's suspended creative status is included; a version whose
// enum lacks a status never sends it.
//
//	next, err := lifecycle.Cancel(buy.Status)
//	if err != nil {
//		return nil, err // *adcperr.Error: NOT_CANCELLABLE
//	}
//	buy.Status = next
package lifecycle
