package lifecycle_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/lifecycle"
)

// FuzzMediaBuy drives a media buy through any sequence of update_media_buy
// actions and seller moves (one byte each) and checks what the runner's
// status.monotonic and the storyboards rely on: the status is always one
// of the enum's; every step's result is a legal move from the status
// before it; a final buy never changes again; an action refused carries
// its AdCP code (INVALID_STATE, NOT_CANCELLABLE) and leaves the status; a
// move refused is a *TransitionError; valid_actions offers exactly the
// pause or resume that would take effect, and nothing once final. Account
// and creative moves are checked the same way on the byte's pair.
func FuzzMediaBuy(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 3})
	f.Add([]byte{3, 8, 9, 10, 2, 2})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 2, 1})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) == 0 {
			return
		}
		statuses := lifecycle.MediaBuyStatuses
		status := statuses[int(ops[0])%len(statuses)]
		for _, op := range ops[1:] {
			before := status
			var err error
			switch op % 5 {
			case 0:
				status, err = lifecycle.Pause(status)
			case 1:
				status, err = lifecycle.Resume(status)
			case 2:
				status, err = lifecycle.Cancel(status)
			case 3:
				err = lifecycle.Update(status)
			case 4:
				to := statuses[int(op/5)%len(statuses)]
				if err = lifecycle.MediaBuyMove(status, to); err == nil {
					status = to
				} else if te := (*lifecycle.TransitionError)(nil); !errors.As(err, &te) {
					t.Fatalf("move %s → %s: %v, not a TransitionError", before, to, err)
				}
			}
			if !slices.Contains(statuses, status) {
				t.Fatalf("op %d from %s: status %q is not in the enum", op, before, status)
			}
			if err != nil {
				if status != before {
					t.Fatalf("op %d from %s refused (%v) but moved to %s", op, before, err, status)
				}
				var ae *adcperr.Error
				if op%5 != 4 && (!errors.As(err, &ae) || (ae.Code != "INVALID_STATE" && ae.Code != "NOT_CANCELLABLE")) {
					t.Fatalf("op %d from %s: %v, want INVALID_STATE or NOT_CANCELLABLE", op, before, err)
				}
				continue
			}
			if lifecycle.MediaBuyFinal(before) && status != before {
				t.Fatalf("op %d moved a final buy from %s to %s", op, before, status)
			}
			if lifecycle.MediaBuyMove(before, status) != nil {
				t.Fatalf("op %d went from %s to %s, off the lifecycle graph", op, before, status)
			}
			actions := lifecycle.ValidActions(status)
			if lifecycle.MediaBuyFinal(status) != (len(actions) == 0) {
				t.Fatalf("%s: valid_actions %v", status, actions)
			}
			if after, _ := lifecycle.Pause(status); slices.Contains(actions, "pause") != (after != status) {
				t.Fatalf("%s: valid_actions %v, pause gives %s", status, actions, after)
			}
			if after, _ := lifecycle.Resume(status); slices.Contains(actions, "resume") != (after != status) {
				t.Fatalf("%s: valid_actions %v, resume gives %s", status, actions, after)
			}
		}
		for i := 0; i+1 < len(ops); i += 2 {
			for _, c := range []struct {
				statuses []string
				move     func(from, to string) error
			}{{lifecycle.AccountStatuses, lifecycle.AccountMove}, {lifecycle.CreativeStatuses, lifecycle.CreativeMove}} {
				from, to := c.statuses[int(ops[i])%len(c.statuses)], c.statuses[int(ops[i+1])%len(c.statuses)]
				err := c.move(from, to)
				var te *lifecycle.TransitionError
				if (from == to && err != nil) || (err != nil && !errors.As(err, &te)) {
					t.Fatalf("%s → %s: %v", from, to, err)
				}
			}
		}
		if err := lifecycle.MediaBuyMove("", status); err == nil {
			t.Fatal("an empty status moved")
		}
	})
}
