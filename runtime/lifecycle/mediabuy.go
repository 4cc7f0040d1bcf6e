package lifecycle

import (
	"fmt"
	"slices"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
)

// Media buy statuses.
const (
	MediaBuyPendingCreatives = "pending_creatives"
	MediaBuyPendingStart     = "pending_start"
	MediaBuyActive           = "active"
	MediaBuyPaused           = "paused"
	MediaBuyCompleted        = "completed"
	MediaBuyRejected         = "rejected"
	MediaBuyCanceled         = "canceled"
)

// MediaBuyStatuses are the media buy statuses, in the enum's order.
var MediaBuyStatuses = []string{MediaBuyPendingCreatives, MediaBuyPendingStart, MediaBuyActive, MediaBuyPaused, MediaBuyCompleted, MediaBuyRejected, MediaBuyCanceled}

// MediaBuyFinal reports a status no media buy leaves: completed, rejected
// or canceled.
func MediaBuyFinal(status string) bool {
	return status == MediaBuyCompleted || status == MediaBuyRejected || status == MediaBuyCanceled
}

// Pause applies update_media_buy's paused: true to a buy in status: a live
// buy (pending or active) pauses, a paused one stays paused, and a final
// one cannot be paused (INVALID_STATE).
func Pause(status string) (string, error) {
	if err := updatable(status, "paused"); err != nil {
		return status, err
	}
	return MediaBuyPaused, nil
}

// Resume applies paused: false: a paused buy is active again (the
// lifecycle has no edge back to pending); a buy that is not paused is
// unchanged; a final one cannot be resumed (INVALID_STATE).
func Resume(status string) (string, error) {
	if err := updatable(status, "resumed"); err != nil {
		return status, err
	}
	if status != MediaBuyPaused {
		return status, nil
	}
	return MediaBuyActive, nil
}

// Cancel applies canceled: true: any buy that is not final is canceled;
// cancellation is irreversible, and a final buy (a second cancel
// included) is NOT_CANCELLABLE.
func Cancel(status string) (string, error) {
	if MediaBuyFinal(status) {
		return status, &adcperr.Error{Code: "NOT_CANCELLABLE",
			Message: fmt.Sprintf("The media buy is %s; it can no longer be canceled", status)}
	}
	return MediaBuyCanceled, nil
}

// Update reports whether a buy in status takes other changes (budgets,
// dates, packages, creatives): INVALID_STATE once it is final.
func Update(status string) error { return updatable(status, "updated") }

func updatable(status, what string) error {
	if MediaBuyFinal(status) {
		return &adcperr.Error{Code: "INVALID_STATE",
			Message: fmt.Sprintf("The media buy is %s and cannot be %s", status, what)}
	}
	return nil
}

// ValidActions are the valid_actions of a buy in status, among those
// every AdCP 3 version names (media-buy-valid-action.json): none once it
// is final.
func ValidActions(status string) []string {
	if MediaBuyFinal(status) {
		return []string{}
	}
	var out []string
	if status == MediaBuyPaused {
		out = append(out, "resume")
	} else {
		out = append(out, "pause")
	}
	return append(out, "cancel", "update_budget", "update_dates", "update_packages", "sync_creatives")
}

// mediaBuyMoves is the media buy lifecycle graph: a buy waits for
// creatives, then for its flight, runs, may pause and resume, and ends
// completed, rejected (before it runs) or canceled; nothing leaves an end,
// and nothing goes back to waiting.
var mediaBuyMoves = map[string][]string{
	MediaBuyPendingCreatives: {MediaBuyPendingStart, MediaBuyActive, MediaBuyPaused, MediaBuyCanceled, MediaBuyRejected},
	MediaBuyPendingStart:     {MediaBuyActive, MediaBuyPaused, MediaBuyCanceled, MediaBuyRejected},
	MediaBuyActive:           {MediaBuyPaused, MediaBuyCompleted, MediaBuyCanceled},
	MediaBuyPaused:           {MediaBuyActive, MediaBuyCompleted, MediaBuyCanceled},
}

// MediaBuyMove checks a media buy's transition along the lifecycle graph
// (a seller's own, as creatives arrive or the flight starts); staying put
// is allowed.
func MediaBuyMove(from, to string) error {
	return force("media buy", MediaBuyStatuses, mediaBuyMoves, from, to)
}

// ForceMediaBuy checks a transition a sandbox controller forces
// (force_media_buy_status): an edge of the lifecycle graph, as for
// MediaBuyMove, so none out of a final status (a *TransitionError, the
// controller's INVALID_TRANSITION; forcing a buy to its own status is a
// no-op).
func ForceMediaBuy(from, to string) error { return MediaBuyMove(from, to) }

// TransitionError is a transition the entity's lifecycle does not allow.
type TransitionError struct {
	Entity   string
	From, To string
}

func (e *TransitionError) Error() string {
	return fmt.Sprintf("a %s cannot go from %s to %s", e.Entity, e.From, e.To)
}

// StatusError is a status the entity does not have.
type StatusError struct {
	Entity, Status string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%q is not a %s status", e.Status, e.Entity)
}

// force checks from → to against the moves graph; staying put is always
// allowed.
func force(entity string, statuses []string, moves map[string][]string, from, to string) error {
	for _, s := range []string{from, to} {
		if !slices.Contains(statuses, s) {
			return &StatusError{Entity: entity, Status: s}
		}
	}
	if from == to || slices.Contains(moves[from], to) {
		return nil
	}
	return &TransitionError{Entity: entity, From: from, To: to}
}
