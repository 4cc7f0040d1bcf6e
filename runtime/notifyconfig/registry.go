package notifyconfig

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Storage keeps each owner's subscriber set. Owners are the seller's keys:
// an account id, or a caller principal for agent-level sets (keep the two
// apart, say with a prefix).
type Storage interface {
	// Load returns owner's set, in the order it was registered; none is
	// empty, not an error.
	Load(ctx context.Context, owner string) ([]Config, error)
	// Save replaces owner's set (none deletes it).
	Save(ctx context.Context, owner string, set []Config) error
}

// NewMemoryStore is a Storage in memory, for one replica and tests.
func NewMemoryStore() Storage { return &memoryStore{sets: map[string][]Config{}} }

type memoryStore struct {
	mu   sync.Mutex
	sets map[string][]Config
}

func (m *memoryStore) Load(_ context.Context, owner string) ([]Config, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.sets[owner]), nil
}

func (m *memoryStore) Save(_ context.Context, owner string, set []Config) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(set) == 0 {
		delete(m.sets, owner)
	} else {
		m.sets[owner] = slices.Clone(set)
	}
	return nil
}

// Options configure a Keeper.
type Options struct {
	// Storage keeps the sets; nil keeps them in memory.
	Storage Storage
	// Prove asks a new or changed active subscriber's endpoint to prove
	// control before it is activated (security.mdx): Challenger's Prove.
	// An error refuses the replacement, the entry's url named. Nil
	// activates without proof: for tests, and sellers whose buyers prove
	// control otherwise.
	Prove func(ctx context.Context, owner string, c Config) error
}

// Keeper applies notification_configs[] replacements to owners' sets.
type Keeper struct {
	store Storage
	prove func(ctx context.Context, owner string, c Config) error
	mu    sync.Mutex // one replacement of an owner's set at a time (per replica)
}

// New returns a Keeper.
func New(o Options) *Keeper {
	r := &Keeper{store: o.Storage, prove: o.Prove}
	if r.store == nil {
		r.store = NewMemoryStore()
	}
	return r
}

// Change is what a replacement did to an owner's set.
type Change string

const (
	// Updated: the set changed (created, replaced, paused or resumed).
	Updated Change = "updated"
	// Unchanged: the request named the set as it was.
	Unchanged Change = "unchanged"
	// Cleared: an empty array removed every subscriber.
	Cleared Change = "cleared"
)

// Sync replaces owner's set with set (Read's, refusals none), keyed by
// subscriber_id: an entry named again replaces the old one in place, one
// left out is removed, [] clears the set. A new or changed active entry
// is proved first (Options.Prove); a refusal leaves the old set as it
// was. dryRun applies nothing and proves nothing, and reports what would
// happen. It returns the action and the set as it is (or would be).
func (r *Keeper) Sync(ctx context.Context, owner string, set []Config, dryRun bool) (Change, []Config, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, err := r.store.Load(ctx, owner)
	if err != nil {
		return "", nil, err
	}
	action := Updated
	switch {
	case len(set) == 0 && len(old) == 0:
		action = Unchanged
	case len(set) == 0:
		action = Cleared
	case sameSet(old, set):
		action = Unchanged
	}
	if dryRun || action == Unchanged {
		if action == Unchanged {
			return action, old, nil
		}
		return action, set, nil
	}
	if r.prove != nil {
		for i, c := range set {
			if !c.Active {
				continue
			}
			if j := slices.IndexFunc(old, func(o Config) bool { return o.SubscriberID == c.SubscriberID }); j >= 0 && old[j].Active && sameEndpoint(old[j], c) {
				continue // proved before, unchanged
			}
			if err := r.prove(ctx, owner, c); err != nil {
				return "", nil, &adcperr.Error{Code: "INVALID_REQUEST", Recovery: "correctable",
					Field:   fmt.Sprintf("notification_configs[%d].url", i),
					Message: "The endpoint did not prove control of the webhook URL: " + err.Error()}
			}
		}
	}
	if err := r.store.Save(ctx, owner, set); err != nil {
		return "", nil, err
	}
	return action, set, nil
}

// List returns owner's set.
func (r *Keeper) List(ctx context.Context, owner string) ([]Config, error) {
	return r.store.Load(ctx, owner)
}

// Subscribers returns owner's active subscribers to event, whose fires go
// to their URLs.
func (r *Keeper) Subscribers(ctx context.Context, owner, event string) ([]Config, error) {
	set, err := r.store.Load(ctx, owner)
	if err != nil {
		return nil, err
	}
	var out []Config
	for _, c := range set {
		if c.Active && slices.Contains(c.EventTypes, event) {
			out = append(out, c)
		}
	}
	return out, nil
}

// Echo is the array a response shows of set: each entry as the buyer sent
// it, active said explicitly, authentication.credentials left out
// (write-only).
func Echo(set []Config) (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, c := range set {
		if i > 0 {
			b.WriteByte(',')
		}
		entry, err := echoEntry(c)
		if err != nil {
			return nil, fmt.Errorf("notifyconfig: subscriber %q: %w", c.SubscriberID, err)
		}
		b.Write(entry)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

var errNotObject = errors.New("the entry is not a JSON object")

// echoEntry is one entry as Echo shows it.
func echoEntry(c Config) ([]byte, error) {
	v := wire.Lenient(c.Entry)
	if !v.IsObject() {
		return nil, errNotObject
	}
	out := []byte(c.Entry)
	if a := v.Get("authentication"); a.IsObject() && a.Get("credentials").Present() {
		auth, ok := a.WithoutMember("credentials")
		if !ok {
			return nil, errNotObject
		}
		if out, ok = v.WithMember("authentication", auth); !ok {
			return nil, errNotObject
		}
	}
	active := []byte("true")
	if !c.Active {
		active = []byte("false")
	}
	out, ok := wire.Lenient(out).WithMember("active", active)
	if !ok {
		return nil, errNotObject
	}
	return out, nil
}

// sameSet reports two sets naming the same subscribers, in the same
// order, alike.
func sameSet(a, b []Config) bool {
	return slices.EqualFunc(a, b, func(x, y Config) bool {
		return x.SubscriberID == y.SubscriberID && x.Active == y.Active && sameEndpoint(x, y)
	})
}

// sameEndpoint reports two entries whose proof of control holds for each
// other: the URL, the event types and the delivery authentication alike.
func sameEndpoint(a, b Config) bool {
	return a.URL == b.URL && slices.Equal(a.EventTypes, b.EventTypes) &&
		bytes.Equal(wire.Lenient(a.Entry).Get("authentication").AppendCompact(nil), wire.Lenient(b.Entry).Get("authentication").AppendCompact(nil))
}
