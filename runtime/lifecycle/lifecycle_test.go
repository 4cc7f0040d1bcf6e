package lifecycle_test

import (
	"errors"
	"io/fs"
	"slices"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/lifecycle"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

func code(err error) string {
	var e *adcperr.Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err != nil {
		return "error"
	}
	return ""
}

// What media_buy_state_machine and invalid_transitions play: pause,
// resume, cancel, then every action on the canceled buy.
func TestMediaBuyActions(t *testing.T) {
	for _, c := range []struct {
		name, from string
		do         func(string) (string, error)
		to, code   string
	}{
		{"pause active", lifecycle.MediaBuyActive, lifecycle.Pause, lifecycle.MediaBuyPaused, ""},
		{"pause pending_start", lifecycle.MediaBuyPendingStart, lifecycle.Pause, lifecycle.MediaBuyPaused, ""},
		{"pause paused", lifecycle.MediaBuyPaused, lifecycle.Pause, lifecycle.MediaBuyPaused, ""},
		{"resume paused", lifecycle.MediaBuyPaused, lifecycle.Resume, lifecycle.MediaBuyActive, ""},
		{"resume active", lifecycle.MediaBuyActive, lifecycle.Resume, lifecycle.MediaBuyActive, ""},
		{"resume pending_start", lifecycle.MediaBuyPendingStart, lifecycle.Resume, lifecycle.MediaBuyPendingStart, ""},
		{"cancel active", lifecycle.MediaBuyActive, lifecycle.Cancel, lifecycle.MediaBuyCanceled, ""},
		{"cancel paused", lifecycle.MediaBuyPaused, lifecycle.Cancel, lifecycle.MediaBuyCanceled, ""},
		{"cancel pending_creatives", lifecycle.MediaBuyPendingCreatives, lifecycle.Cancel, lifecycle.MediaBuyCanceled, ""},
		{"pause canceled", lifecycle.MediaBuyCanceled, lifecycle.Pause, lifecycle.MediaBuyCanceled, "INVALID_STATE"},
		{"resume canceled", lifecycle.MediaBuyCanceled, lifecycle.Resume, lifecycle.MediaBuyCanceled, "INVALID_STATE"},
		{"cancel canceled", lifecycle.MediaBuyCanceled, lifecycle.Cancel, lifecycle.MediaBuyCanceled, "NOT_CANCELLABLE"},
		{"cancel completed", lifecycle.MediaBuyCompleted, lifecycle.Cancel, lifecycle.MediaBuyCompleted, "NOT_CANCELLABLE"},
		{"pause rejected", lifecycle.MediaBuyRejected, lifecycle.Pause, lifecycle.MediaBuyRejected, "INVALID_STATE"},
		{"update completed", lifecycle.MediaBuyCompleted, func(s string) (string, error) { return s, lifecycle.Update(s) }, lifecycle.MediaBuyCompleted, "INVALID_STATE"},
		{"update active", lifecycle.MediaBuyActive, func(s string) (string, error) { return s, lifecycle.Update(s) }, lifecycle.MediaBuyActive, ""},
	} {
		to, err := c.do(c.from)
		if to != c.to || code(err) != c.code {
			t.Errorf("%s: %s, %v; want %s, %s", c.name, to, err, c.to, c.code)
		}
	}
}

// Forced transitions (the controller's): anything out of a live buy,
// creative and account rules as the enum descriptions give them.
func TestForced(t *testing.T) {
	var te *lifecycle.TransitionError
	var se *lifecycle.StatusError
	for _, c := range []struct {
		name     string
		check    func(from, to string) error
		from, to string
		want     any // nil, &te or &se
	}{
		{"buy pending_start to active", lifecycle.ForceMediaBuy, "pending_start", "active", nil},
		{"buy active to completed", lifecycle.ForceMediaBuy, "active", "completed", nil},
		{"buy completed to active", lifecycle.ForceMediaBuy, "completed", "active", &te},
		{"buy completed to completed", lifecycle.ForceMediaBuy, "completed", "completed", nil},
		{"buy pending_creatives to pending_start", lifecycle.MediaBuyMove, "pending_creatives", "pending_start", nil},
		{"buy pending_start back to pending_creatives", lifecycle.MediaBuyMove, "pending_start", "pending_creatives", &te},
		{"buy paused to pending_start", lifecycle.MediaBuyMove, "paused", "pending_start", &te},
		{"buy active to rejected", lifecycle.MediaBuyMove, "active", "rejected", &te},
		{"buy to an unknown status", lifecycle.ForceMediaBuy, "active", "running", &se},
		{"creative processing to pending_review", lifecycle.CreativeMove, "processing", "pending_review", nil},
		{"creative processing to approved, unreviewed", lifecycle.CreativeMove, "processing", "approved", &te},
		{"creative approved to archived", lifecycle.CreativeMove, "approved", "archived", nil},
		{"creative archived to processing", lifecycle.CreativeMove, "archived", "processing", &te},
		{"creative archived to approved", lifecycle.CreativeMove, "archived", "approved", nil},
		{"creative rejected to processing", lifecycle.CreativeMove, "rejected", "processing", nil},
		{"creative pending_review to rejected", lifecycle.CreativeMove, "pending_review", "rejected", nil},
		{"creative approved to approved", lifecycle.CreativeMove, "approved", "approved", nil},
		{"account active to suspended", lifecycle.AccountMove, "active", "suspended", nil},
		{"account suspended to active", lifecycle.AccountMove, "suspended", "active", nil},
		{"account active to payment_required", lifecycle.AccountMove, "active", "payment_required", nil},
		{"account payment_required to active", lifecycle.AccountMove, "payment_required", "active", nil},
		{"account closed to active", lifecycle.AccountMove, "closed", "active", &te},
		{"account rejected to active", lifecycle.AccountMove, "rejected", "active", &te},
	} {
		err := c.check(c.from, c.to)
		switch want := c.want.(type) {
		case nil:
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		case **lifecycle.TransitionError:
			if !errors.As(err, want) || (*want).From != c.from || (*want).To != c.to {
				t.Errorf("%s: %v, want a TransitionError", c.name, err)
			}
		case **lifecycle.StatusError:
			if !errors.As(err, want) {
				t.Errorf("%s: %v, want a StatusError", c.name, err)
			}
		}
	}
	if ok, code := lifecycle.AccountOperable(lifecycle.AccountSuspended); ok || code != "ACCOUNT_SUSPENDED" {
		t.Errorf("suspended account operable: %v %s", ok, code)
	}
}

// The statuses are each version's enums, the valid actions and error
// codes are the version's own.
func TestVersions(t *testing.T) {
	enum := func(t *testing.T, fsys fs.FS, path string) []string {
		data, err := fs.ReadFile(fsys, path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		wire.Lenient(data).Get("enum").Elems(func(e wire.Lenient) bool {
			s, _ := e.AsString()
			out = append(out, s)
			return true
		})
		return out
	}
	for _, v := range specseller.Versions {
		tree, sp := specseller.Open(t, v.Version)
		if got := enum(t, tree.FS, "enums/media-buy-status.json"); !slices.Equal(got, lifecycle.MediaBuyStatuses) {
			t.Errorf("%s media buy statuses %v", v.Version, got)
		}
		for _, s := range enum(t, tree.FS, "enums/creative-status.json") {
			if !slices.Contains(lifecycle.CreativeStatuses, s) {
				t.Errorf("%s creative status %s unknown", v.Version, s)
			}
		}
		if got := enum(t, tree.FS, "enums/account-status.json"); !slices.Equal(got, lifecycle.AccountStatuses) {
			t.Errorf("%s account statuses %v", v.Version, got)
		}
		actions := enum(t, tree.FS, "enums/media-buy-valid-action.json")
		for _, s := range lifecycle.MediaBuyStatuses {
			for _, a := range lifecycle.ValidActions(s) {
				if !slices.Contains(actions, a) {
					t.Errorf("%s: valid action %s unknown", v.Version, a)
				}
			}
		}
		for _, c := range []string{"INVALID_STATE", "NOT_CANCELLABLE", "ACCOUNT_SUSPENDED", "ACCOUNT_PAYMENT_REQUIRED", "ACCOUNT_SETUP_REQUIRED", "ACCOUNT_NOT_FOUND"} {
			if _, ok := sp.Recovery(c); !ok {
				t.Errorf("%s has no error code %s", v.Version, c)
			}
		}
	}
}
