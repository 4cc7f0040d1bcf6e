package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

const (
	lease     = 30 * time.Second
	retention = 24 * time.Hour
	fpA       = "sha256:aaaa"
	fpB       = "sha256:bbbb"
)

// body is a response with bytes that survive no text conversion: NUL,
// invalid UTF-8, a trailing newline.
var body = []byte("{\"status\":\"completed\",\"x\":\"\x00\xff\xfe\"}\n")

func request(principal, key, fingerprint string) sellerstore.ClaimRequest {
	return sellerstore.ClaimRequest{
		IdempotencyKey: sellerstore.IdempotencyKey{Principal: principal, Tool: "create_media_buy", Key: key},
		Fingerprint:    fingerprint,
		Lease:          lease,
		Retention:      retention,
	}
}

func claim(t *testing.T, s sellerstore.IdempotencyStore, req sellerstore.ClaimRequest, want sellerstore.Outcome) sellerstore.Claim {
	t.Helper()
	c, err := s.Claim(context.Background(), req)
	if err != nil {
		t.Fatalf("Claim(%s/%s/%s): %v", req.Principal, req.Tool, req.Key, err)
	}
	if c.Outcome != want {
		t.Fatalf("Claim(%s/%s/%s) = %v, want %v", req.Principal, req.Tool, req.Key, c.Outcome, want)
	}
	if (c.Token != "") != (want == sellerstore.Claimed) {
		t.Fatalf("Claim outcome %v with token %q", c.Outcome, c.Token)
	}
	return c
}

func complete(t *testing.T, s sellerstore.IdempotencyStore, req sellerstore.ClaimRequest, token string, resp sellerstore.StoredResponse) {
	t.Helper()
	if err := s.Complete(context.Background(), req.IdempotencyKey, token, resp); err != nil {
		t.Fatalf("Complete: %v", err)
	}
}

func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: error %v, want %v", what, err, target)
	}
}

func sameResponse(t *testing.T, got, want sellerstore.StoredResponse) {
	t.Helper()
	if !bytes.Equal(got.Body, want.Body) || got.Status != want.Status || got.TaskID != want.TaskID {
		t.Fatalf("replayed %q (status %q, task %q), want %q (status %q, task %q)",
			got.Body, got.Status, got.TaskID, want.Body, want.Status, want.TaskID)
	}
}

var stored = sellerstore.StoredResponse{Body: body, Status: "submitted", TaskID: "task-1"}

var idempotencyTests = []storeTest{
	{"NewKeyIsClaimed", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		c := claim(t, s, request("p1", "k1", fpA), sellerstore.Claimed)
		if now := at(clock); !c.ClaimedAt.Equal(now) || !c.LeaseUntil.Equal(now.Add(lease)) {
			t.Fatalf("claimed at %v until %v, want %v until %v", c.ClaimedAt, c.LeaseUntil, now, now.Add(lease))
		}
	}},
	{"ReplayIsByteForByte", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		c := claim(t, s, req, sellerstore.Claimed)
		resp := sellerstore.StoredResponse{Body: bytes.Clone(body), Status: stored.Status, TaskID: stored.TaskID}
		clock.Advance(time.Second)
		completedAt := at(clock)
		complete(t, s, req, c.Token, resp)
		resp.Body[0] = 'X' // the store keeps its own copy
		clock.Advance(time.Minute)
		for range 2 {
			r := claim(t, s, req, sellerstore.Replay)
			sameResponse(t, r.Response, stored)
			if !r.CompletedAt.Equal(completedAt) || !r.ExpiresAt.Equal(completedAt.Add(retention)) {
				t.Fatalf("replay completed %v expires %v, want %v and %v", r.CompletedAt, r.ExpiresAt, completedAt, completedAt.Add(retention))
			}
			r.Response.Body[0] = 'Y' // nor does a caller's copy reach it
		}
	}},
	{"EmptyResponseReplays", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		c := claim(t, s, req, sellerstore.Claimed)
		complete(t, s, req, c.Token, sellerstore.StoredResponse{})
		r := claim(t, s, req, sellerstore.Replay)
		sameResponse(t, r.Response, sellerstore.StoredResponse{})
	}},
	{"OtherFingerprintConflicts", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		c := claim(t, s, req, sellerstore.Claimed)
		claim(t, s, request("p1", "k1", fpB), sellerstore.Conflict) // while in flight
		complete(t, s, req, c.Token, stored)
		r := claim(t, s, request("p1", "k1", fpB), sellerstore.Conflict) // once completed
		if r.Response.Body != nil {
			t.Fatalf("a conflict revealed the stored response %q", r.Response.Body)
		}
		claim(t, s, req, sellerstore.Replay)
	}},
	{"LiveClaimIsInFlight", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		first := claim(t, s, request("p1", "k1", fpA), sellerstore.Claimed)
		clock.Advance(lease - time.Microsecond)
		c := claim(t, s, request("p1", "k1", fpA), sellerstore.InFlight)
		if !c.ClaimedAt.Equal(first.ClaimedAt) || !c.LeaseUntil.Equal(first.LeaseUntil) {
			t.Fatalf("in flight since %v until %v, want the holder's %v until %v", c.ClaimedAt, c.LeaseUntil, first.ClaimedAt, first.LeaseUntil)
		}
	}},
	{"LapsedLeaseIsTakenOver", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		first := claim(t, s, req, sellerstore.Claimed)
		clock.Advance(lease)
		second := claim(t, s, req, sellerstore.Claimed)
		if second.Token == first.Token {
			t.Fatal("a takeover kept the crashed holder's token")
		}
		if !second.ClaimedAt.Equal(at(clock)) {
			t.Fatalf("taken over at %v, want %v", second.ClaimedAt, at(clock))
		}
		claim(t, s, req, sellerstore.InFlight)
		wantErr(t, "Complete with the lapsed token", s.Complete(context.Background(), req.IdempotencyKey, first.Token, stored), sellerstore.ErrClaimLost)
		wantErr(t, "Release with the lapsed token", s.Release(context.Background(), req.IdempotencyKey, first.Token), sellerstore.ErrClaimLost)
		complete(t, s, req, second.Token, stored)
		sameResponse(t, claim(t, s, req, sellerstore.Replay).Response, stored)
	}},
	{"LapsedLeaseWithOtherFingerprintConflicts", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		claim(t, s, request("p1", "k1", fpA), sellerstore.Claimed)
		clock.Advance(2 * lease)
		claim(t, s, request("p1", "k1", fpB), sellerstore.Conflict)
	}},
	{"HolderCompletesAfterLeaseLapsedUntilTakenOver", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		c := claim(t, s, req, sellerstore.Claimed)
		clock.Advance(2 * lease)
		complete(t, s, req, c.Token, stored)
		claim(t, s, req, sellerstore.Replay)
	}},
	{"RenewExtendsTheLease", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		c := claim(t, s, req, sellerstore.Claimed)
		clock.Advance(lease - time.Second)
		if err := s.Renew(context.Background(), req.IdempotencyKey, c.Token, lease); err != nil {
			t.Fatalf("Renew: %v", err)
		}
		renewedUntil := at(clock).Add(lease)
		clock.Advance(lease - time.Second)
		if got := claim(t, s, req, sellerstore.InFlight); !got.LeaseUntil.Equal(renewedUntil) {
			t.Fatalf("lease until %v after renewal, want %v", got.LeaseUntil, renewedUntil)
		}
		wantErr(t, "Renew with another token", s.Renew(context.Background(), req.IdempotencyKey, "not-the-token", lease), sellerstore.ErrClaimLost)
		wantErr(t, "Renew without a lease", s.Renew(context.Background(), req.IdempotencyKey, c.Token, 0), sellerstore.ErrInvalid)
		complete(t, s, req, c.Token, stored)
		wantErr(t, "Renew after Complete", s.Renew(context.Background(), req.IdempotencyKey, c.Token, lease), sellerstore.ErrClaimLost)
	}},
	{"ReplayWindowExpires", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		c := claim(t, s, req, sellerstore.Claimed)
		complete(t, s, req, c.Token, stored)
		completedAt := at(clock)
		clock.Advance(retention - time.Microsecond)
		claim(t, s, req, sellerstore.Replay)
		clock.Advance(time.Microsecond)
		e := claim(t, s, req, sellerstore.Expired)
		if !e.ExpiresAt.Equal(completedAt.Add(retention)) || !e.CompletedAt.Equal(completedAt) || e.Response.Body != nil {
			t.Fatalf("expired claim %+v, want completed %v, expiry %v, no response", e, completedAt, completedAt.Add(retention))
		}
		claim(t, s, request("p1", "k1", fpB), sellerstore.Expired)
	}},
	{"ReleaseFreesTheKey", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		first := claim(t, s, req, sellerstore.Claimed)
		wantErr(t, "Release with another token", s.Release(context.Background(), req.IdempotencyKey, "not-the-token"), sellerstore.ErrClaimLost)
		if err := s.Release(context.Background(), req.IdempotencyKey, first.Token); err != nil {
			t.Fatalf("Release: %v", err)
		}
		wantErr(t, "Complete after Release", s.Complete(context.Background(), req.IdempotencyKey, first.Token, stored), sellerstore.ErrClaimLost)
		wantErr(t, "Release twice", s.Release(context.Background(), req.IdempotencyKey, first.Token), sellerstore.ErrClaimLost)
		// A released key is unknown: even another fingerprint claims it.
		second := claim(t, s, request("p1", "k1", fpB), sellerstore.Claimed)
		if second.Token == first.Token {
			t.Fatal("a new claim reused the released token")
		}
	}},
	{"CompletedClaimIsFinal", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("p1", "k1", fpA)
		c := claim(t, s, req, sellerstore.Claimed)
		complete(t, s, req, c.Token, stored)
		other := sellerstore.StoredResponse{Body: []byte(`{}`), Status: "completed"}
		wantErr(t, "Complete twice", s.Complete(context.Background(), req.IdempotencyKey, c.Token, other), sellerstore.ErrClaimLost)
		wantErr(t, "Release after Complete", s.Release(context.Background(), req.IdempotencyKey, c.Token), sellerstore.ErrClaimLost)
		clock.Advance(2 * lease)
		sameResponse(t, claim(t, s, req, sellerstore.Replay).Response, stored)
	}},
	{"UnknownKeyHasNoHold", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		key := request("p1", "never", fpA).IdempotencyKey
		wantErr(t, "Complete", s.Complete(context.Background(), key, "token", stored), sellerstore.ErrClaimLost)
		wantErr(t, "Release", s.Release(context.Background(), key, "token"), sellerstore.ErrClaimLost)
		wantErr(t, "Renew", s.Renew(context.Background(), key, "token", lease), sellerstore.ErrClaimLost)
	}},
	{"KeysAreScopedByPrincipalAndTool", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		req := request("buyer-a", "shared-key", fpA)
		c := claim(t, s, req, sellerstore.Claimed)
		// Another buyer's claim of the same key while A's is in flight,
		// with A's fingerprint or another: its own new key.
		other := claim(t, s, request("buyer-b", "shared-key", fpB), sellerstore.Claimed)
		complete(t, s, req, c.Token, stored)
		claim(t, s, request("buyer-c", "shared-key", fpA), sellerstore.Claimed)
		// B's token does not reach A's record, nor A's B's.
		wantErr(t, "B's token on A's key", s.Release(context.Background(), req.IdempotencyKey, other.Token), sellerstore.ErrClaimLost)
		wantErr(t, "A's token on B's key", s.Release(context.Background(), request("buyer-b", "shared-key", fpB).IdempotencyKey, c.Token), sellerstore.ErrClaimLost)
		otherTool := req
		otherTool.Tool = "update_media_buy"
		claim(t, s, otherTool, sellerstore.Claimed)
		sameResponse(t, claim(t, s, req, sellerstore.Replay).Response, stored)
	}},
	{"InvalidArguments", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		ctx := context.Background()
		for _, mutate := range []func(*sellerstore.ClaimRequest){
			func(r *sellerstore.ClaimRequest) { r.Principal = "" },
			func(r *sellerstore.ClaimRequest) { r.Tool = "" },
			func(r *sellerstore.ClaimRequest) { r.Key = "" },
			func(r *sellerstore.ClaimRequest) { r.Fingerprint = "" },
			func(r *sellerstore.ClaimRequest) { r.Key = "k\x00" },
			func(r *sellerstore.ClaimRequest) { r.Principal = "p\xff" },
			func(r *sellerstore.ClaimRequest) { r.Lease = 0 },
			func(r *sellerstore.ClaimRequest) { r.Retention = -time.Second },
		} {
			req := request("p1", "k1", fpA)
			mutate(&req)
			_, err := s.Claim(ctx, req)
			wantErr(t, "Claim", err, sellerstore.ErrInvalid)
		}
		key := request("p1", "k1", fpA).IdempotencyKey
		wantErr(t, "Complete without token", s.Complete(ctx, key, "", stored), sellerstore.ErrInvalid)
		wantErr(t, "Complete with a NUL in the task id", s.Complete(ctx, key, "x", sellerstore.StoredResponse{TaskID: "t\x00"}), sellerstore.ErrInvalid)
		wantErr(t, "Release without principal", s.Release(ctx, sellerstore.IdempotencyKey{Tool: "t", Key: "k"}, "x"), sellerstore.ErrInvalid)
	}},
}
