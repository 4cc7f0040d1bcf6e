package storetest

import (
	"testing"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
)

var sharedTests = []sharedTest{
	{"ConcurrentClaimsOneWinner", func(t *testing.T, a, b sellerstore.Store, clock *FakeClock) {
		ConcurrentClaims(t, a, b)
	}},
	{"ConcurrentRetriesRunTheHandlerOnce", func(t *testing.T, a, b sellerstore.Store, clock *FakeClock) {
		ConcurrentRetries(t, a, b)
	}},
	{"ConcurrentFingerprintsConflict", func(t *testing.T, a, b sellerstore.Store, clock *FakeClock) {
		ConcurrentConflicts(t, a, b)
	}},
	{"CompletedOnOneReplaysOnTheOther", func(t *testing.T, a, b sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		c := claim(t, a, req, sellerstore.Claimed)
		claim(t, b, req, sellerstore.InFlight)
		complete(t, a, req, c.Token, stored)
		sameResponse(t, claim(t, b, req, sellerstore.Replay).Response, stored)
		claim(t, b, request("p2", "k1", fpA), sellerstore.Claimed)
	}},
	{"CrashedReplicaIsTakenOver", func(t *testing.T, a, b sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		crashed := claim(t, a, req, sellerstore.Claimed)
		clock.Advance(lease)
		c := claim(t, b, req, sellerstore.Claimed)
		wantErr(t, "the crashed replica's late Complete", a.Complete(t.Context(), req.IdempotencyKey, crashed.Token, stored), sellerstore.ErrClaimLost)
		complete(t, a, req, c.Token, stored) // a token is valid on every replica
		claim(t, a, req, sellerstore.Replay)
	}},
	{"TaskWrittenOnOneReadOnTheOther", func(t *testing.T, a, b sellerstore.Store, clock *FakeClock) {
		created := create(t, a, newTask("p1", "task-1", task.Submitted))
		sameTask(t, get(t, b, "p1", "task-1"), created)
		done := update(t, b, "p1", "task-1", sellerstore.TaskUpdate{Status: task.Completed, Result: []byte(`{}`)})
		sameTask(t, get(t, a, "p1", "task-1"), done)
		_, errOther := b.GetTask(t.Context(), "p2", "task-1")
		_, errMissing := a.GetTask(t.Context(), "p2", "task-9")
		notYours(t, "GetTask across replicas", errOther, errMissing, "task-1", "task-9")
	}},
}
