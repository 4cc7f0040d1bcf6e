package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/adcpgen/adcpgen/runtime/internal/storekit"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
)

func newTask(principal, id string, status task.Status) sellerstore.Task {
	return sellerstore.Task{ID: id, Principal: principal, Tool: "create_media_buy", Status: status,
		Request:    []byte(`{"idempotency_key":"k-0123456789abcdef","context":{"trace":"t1"}}`),
		PushConfig: []byte(`{"url":"https://buyer.example/hook","token":"t"}`)}
}

func create(t *testing.T, s sellerstore.TaskStore, task sellerstore.Task) sellerstore.Task {
	t.Helper()
	got, err := s.CreateTask(context.Background(), task)
	if err != nil {
		t.Fatalf("CreateTask(%s): %v", task.ID, err)
	}
	return got
}

func get(t *testing.T, s sellerstore.TaskStore, principal, id string) sellerstore.Task {
	t.Helper()
	got, err := s.GetTask(context.Background(), principal, id)
	if err != nil {
		t.Fatalf("GetTask(%s, %s): %v", principal, id, err)
	}
	return got
}

func update(t *testing.T, s sellerstore.TaskStore, principal, id string, u sellerstore.TaskUpdate) sellerstore.Task {
	t.Helper()
	got, err := s.UpdateTask(context.Background(), principal, id, u)
	if err != nil {
		t.Fatalf("UpdateTask(%s, %s, %s): %v", principal, id, u.Status, err)
	}
	return got
}

func sameTask(t *testing.T, got, want sellerstore.Task) {
	t.Helper()
	if got.ID != want.ID || got.Principal != want.Principal || got.Tool != want.Tool || got.Status != want.Status ||
		!got.CreatedAt.Equal(want.CreatedAt) || !got.UpdatedAt.Equal(want.UpdatedAt) ||
		!bytes.Equal(got.Request, want.Request) || !bytes.Equal(got.PushConfig, want.PushConfig) ||
		!bytes.Equal(got.Progress, want.Progress) || !bytes.Equal(got.Result, want.Result) {
		t.Fatalf("task\n got %s\nwant %s", describe(got), describe(want))
	}
}

func describe(t sellerstore.Task) string {
	return fmt.Sprintf("{%s %s %s %s created %v updated %v request %q push %q progress %q result %q}",
		t.ID, t.Principal, t.Tool, t.Status, t.CreatedAt, t.UpdatedAt, t.Request, t.PushConfig, t.Progress, t.Result)
}

// notYours checks that asking for another principal's task id fails
// exactly as asking for an id nobody has: same sentinel, same message.
func notYours(t *testing.T, what string, errOther, errMissing error, otherID, missingID string) {
	t.Helper()
	if !errors.Is(errOther, sellerstore.ErrNotFound) || !errors.Is(errMissing, sellerstore.ErrNotFound) {
		t.Fatalf("%s: another principal's task: %v; a missing task: %v; want ErrNotFound for both", what, errOther, errMissing)
	}
	if strings.ReplaceAll(errMissing.Error(), missingID, otherID) != errOther.Error() {
		t.Fatalf("%s: another principal's task says %q, a missing one %q: they must not differ", what, errOther, errMissing)
	}
}

var taskTests = []storeTest{
	{"CreateThenGet", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		in := newTask("p1", "task-1", task.Submitted)
		in.CreatedAt = time.Unix(1, 0) // ignored: the store's clock decides
		got := create(t, s, in)
		want := in
		want.PushConfig = bytes.Clone(in.PushConfig)
		want.Request = bytes.Clone(in.Request)
		want.CreatedAt, want.UpdatedAt = at(clock), at(clock)
		sameTask(t, got, want)
		in.PushConfig[0] = 'X' // the store keeps its own copy
		in.Request[0] = 'X'
		clock.Advance(time.Second)
		sameTask(t, get(t, s, "p1", "task-1"), want)
	}},
	{"CreateTakenIDFails", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		create(t, s, newTask("p1", "task-1", task.Submitted))
		for _, principal := range []string{"p1", "p2"} {
			_, err := s.CreateTask(context.Background(), newTask(principal, "task-1", task.Working))
			wantErr(t, "CreateTask with a taken id by "+principal, err, sellerstore.ErrExists)
		}
		if got := get(t, s, "p1", "task-1"); got.Status != task.Submitted {
			t.Fatalf("a failed create changed the task to %s", got.Status)
		}
	}},
	{"CreateInAnyKnownStatus", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		for _, st := range storekit.StorableStatuses() {
			create(t, s, newTask("p1", "task-"+string(st), st))
		}
	}},
	{"Lifecycle", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		created := create(t, s, newTask("p1", "task-1", task.Submitted))
		steps := []sellerstore.TaskUpdate{
			{Status: task.Working, Progress: []byte(`{"percentage":10}`)},
			{Status: task.Working, Progress: []byte(`{"percentage":50}`)},
			{Status: task.InputRequired},
			{Status: task.AuthRequired},
			{Status: task.Working, Progress: []byte(`{"percentage":90}`)},
			{Status: task.Submitted},
			{Status: task.Completed, Result: []byte(`{"media_buy_id":"mb-1"}`)},
		}
		want := created
		for _, u := range steps {
			clock.Advance(time.Second)
			want.Status, want.UpdatedAt = u.Status, at(clock)
			if u.Progress != nil {
				want.Progress = u.Progress
			}
			if u.Result != nil {
				want.Result = u.Result
			}
			sameTask(t, update(t, s, "p1", "task-1", u), want)
			sameTask(t, get(t, s, "p1", "task-1"), want)
		}
		clock.Advance(time.Second)
		for _, st := range storekit.StorableStatuses() {
			_, err := s.UpdateTask(context.Background(), "p1", "task-1", sellerstore.TaskUpdate{Status: st, Result: []byte(`{}`)})
			wantErr(t, "update of a completed task to "+string(st), err, sellerstore.ErrTaskFinal)
		}
		sameTask(t, get(t, s, "p1", "task-1"), want)
	}},
	{"FinalStatusesAreFinal", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		for _, final := range []task.Status{task.Completed, task.Failed, task.Canceled, task.Rejected} {
			id := "task-" + string(final)
			create(t, s, newTask("p1", id, task.Working))
			update(t, s, "p1", id, sellerstore.TaskUpdate{Status: final})
			_, err := s.UpdateTask(context.Background(), "p1", id, sellerstore.TaskUpdate{Status: task.Working})
			wantErr(t, string(final)+" then working", err, sellerstore.ErrTaskFinal)
		}
	}},
	{"OtherPrincipalsTaskIsNotFound", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		ctx := context.Background()
		create(t, s, newTask("buyer-a", "task-a", task.Working))
		_, errOther := s.GetTask(ctx, "buyer-b", "task-a")
		_, errMissing := s.GetTask(ctx, "buyer-b", "task-zz")
		notYours(t, "GetTask", errOther, errMissing, "task-a", "task-zz")
		_, errOther = s.UpdateTask(ctx, "buyer-b", "task-a", sellerstore.TaskUpdate{Status: task.Canceled})
		_, errMissing = s.UpdateTask(ctx, "buyer-b", "task-zz", sellerstore.TaskUpdate{Status: task.Canceled})
		notYours(t, "UpdateTask", errOther, errMissing, "task-a", "task-zz")
		// A final task of another principal is still "not found", never "final".
		update(t, s, "buyer-a", "task-a", sellerstore.TaskUpdate{Status: task.Completed})
		mine := get(t, s, "buyer-a", "task-a")
		_, errOther = s.UpdateTask(ctx, "buyer-b", "task-a", sellerstore.TaskUpdate{Status: task.Canceled})
		notYours(t, "UpdateTask on a final task", errOther, errMissing, "task-a", "task-zz")
		sameTask(t, get(t, s, "buyer-a", "task-a"), mine)
		page, err := s.ListTasks(ctx, "buyer-b", sellerstore.TaskQuery{})
		if err != nil || len(page.Tasks) != 0 {
			t.Fatalf("buyer-b lists %d tasks (%v), want none", len(page.Tasks), err)
		}
	}},
	{"InvalidArguments", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		ctx := context.Background()
		create(t, s, newTask("p1", "task-1", task.Working))
		for _, bad := range []sellerstore.Task{
			newTask("", "task-2", task.Working),
			newTask("p1", "", task.Working),
			newTask("p1", "task-2", "unknown"),
			newTask("p1", "task-2", ""),
			newTask("p1", "task-\x00", task.Working),
			newTask("p\xc3", "task-2", task.Working),
			{ID: "task-2", Principal: "p1", Status: task.Working},
		} {
			_, err := s.CreateTask(ctx, bad)
			wantErr(t, "CreateTask("+describe(bad)+")", err, sellerstore.ErrInvalid)
		}
		_, err := s.UpdateTask(ctx, "p1", "task-1", sellerstore.TaskUpdate{Status: "done"})
		wantErr(t, "UpdateTask to an unknown status", err, sellerstore.ErrInvalid)
		_, err = s.GetTask(ctx, "", "task-1")
		wantErr(t, "GetTask without principal", err, sellerstore.ErrInvalid)
		for _, q := range []sellerstore.TaskQuery{{Limit: -1}, {Cursor: "!!"}, {Cursor: "bm9waXBl"}, {Statuses: []task.Status{"unknown"}}} {
			_, err = s.ListTasks(ctx, "p1", q)
			wantErr(t, fmt.Sprintf("ListTasks(%+v)", q), err, sellerstore.ErrInvalid)
		}
		_, err = s.ListTasks(ctx, "", sellerstore.TaskQuery{})
		wantErr(t, "ListTasks without principal", err, sellerstore.ErrInvalid)
	}},
	{"ListPagesNewestFirst", testList},
	{"ListPagingIgnoresNewerTasks", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		for i := range 5 {
			create(t, s, newTask("p1", fmt.Sprintf("old-%d", i), task.Working))
			clock.Advance(time.Second)
		}
		first, err := s.ListTasks(context.Background(), "p1", sellerstore.TaskQuery{Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		create(t, s, newTask("p1", "new", task.Working))
		ids := pageIDs(first.Tasks)
		for q := (sellerstore.TaskQuery{Limit: 2, Cursor: first.Next}); q.Cursor != ""; {
			page, err := s.ListTasks(context.Background(), "p1", q)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, pageIDs(page.Tasks)...)
			q.Cursor = page.Next
		}
		if got := strings.Join(ids, " "); got != "old-4 old-3 old-2 old-1 old-0" {
			t.Fatalf("paged %s, want old-4 old-3 old-2 old-1 old-0", got)
		}
	}},
	{"ConcurrentFinishOneWinner", func(t *testing.T, s sellerstore.Store, clock *FakeClock) {
		create(t, s, newTask("p1", "task-1", task.Working))
		errs := make([]error, Concurrency)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range Concurrency {
			wg.Go(func() {
				<-start
				final := []task.Status{task.Completed, task.Failed, task.Canceled}[i%3]
				_, errs[i] = s.UpdateTask(context.Background(), "p1", "task-1",
					sellerstore.TaskUpdate{Status: final, Result: fmt.Appendf(nil, `{"by":%d}`, i)})
			})
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("callers %d and %d both finished the task", winner, i)
			case err == nil:
				winner = i
			case !errors.Is(err, sellerstore.ErrTaskFinal):
				t.Fatalf("caller %d: %v, want ErrTaskFinal", i, err)
			}
		}
		if winner < 0 {
			t.Fatal("no caller finished the task")
		}
		if got := get(t, s, "p1", "task-1"); string(got.Result) != fmt.Sprintf(`{"by":%d}`, winner) {
			t.Fatalf("result %s, want the winner's (%d)", got.Result, winner)
		}
	}},
}

func pageIDs(tasks []sellerstore.Task) []string {
	ids := make([]string, len(tasks))
	for i, t := range tasks {
		ids[i] = t.ID
	}
	return ids
}

func testList(t *testing.T, s sellerstore.Store, clock *FakeClock) {
	ctx := context.Background()
	// Creation order and times: b and c share an instant (ties go by id,
	// descending); p2's tasks interleave and must never show.
	plan := []struct {
		principal, id, tool string
		status              task.Status
		advance             bool
	}{
		{"p1", "a", "create_media_buy", task.Completed, true},
		{"p2", "x", "create_media_buy", task.Working, true},
		{"p1", "c", "sync_creatives", task.Working, false},
		{"p1", "b", "create_media_buy", task.Working, true},
		{"p1", "d", "create_media_buy", task.Submitted, true},
		{"p2", "y", "sync_creatives", task.Submitted, true},
		{"p1", "e", "sync_creatives", task.Failed, true},
	}
	for _, p := range plan {
		task := newTask(p.principal, p.id, p.status)
		task.Tool = p.tool
		create(t, s, task)
		if p.advance {
			clock.Advance(time.Millisecond)
		}
	}
	all := func(q sellerstore.TaskQuery) (string, int) {
		var ids []string
		pages := 0
		for {
			page, err := s.ListTasks(ctx, "p1", q)
			if err != nil {
				t.Fatalf("ListTasks(%+v): %v", q, err)
			}
			pages++
			if q.Limit > 0 && len(page.Tasks) > q.Limit {
				t.Fatalf("page of %d tasks, limit %d", len(page.Tasks), q.Limit)
			}
			for _, task := range page.Tasks {
				if task.Principal != "p1" || !bytes.Equal(task.PushConfig, newTask("", "", "").PushConfig) {
					t.Fatalf("listed %s", describe(task))
				}
			}
			ids = append(ids, pageIDs(page.Tasks)...)
			if page.Next == "" {
				return strings.Join(ids, " "), pages
			}
			q.Cursor = page.Next
		}
	}
	tests := []struct {
		name      string
		q         sellerstore.TaskQuery
		want      string
		wantPages int
	}{
		{"default page", sellerstore.TaskQuery{}, "e d c b a", 1},
		{"pages of two", sellerstore.TaskQuery{Limit: 2}, "e d c b a", 3},
		{"pages of one", sellerstore.TaskQuery{Limit: 1}, "e d c b a", 5},
		{"exact fit", sellerstore.TaskQuery{Limit: 5}, "e d c b a", 1},
		{"interim statuses", sellerstore.TaskQuery{Statuses: []task.Status{task.Working, task.Submitted}, Limit: 2}, "d c b", 2},
		{"one status", sellerstore.TaskQuery{Statuses: []task.Status{task.Completed}}, "a", 1},
		{"no match", sellerstore.TaskQuery{Statuses: []task.Status{task.Rejected}}, "", 1},
		{"one tool", sellerstore.TaskQuery{Tools: []string{"sync_creatives"}}, "e c", 1},
		{"tool and status", sellerstore.TaskQuery{Tools: []string{"create_media_buy"}, Statuses: []task.Status{task.Working}}, "b", 1},
		{"over the maximum", sellerstore.TaskQuery{Limit: sellerstore.MaxPageSize + 1}, "e d c b a", 1},
	}
	for _, tt := range tests {
		got, pages := all(tt.q)
		if got != tt.want || pages != tt.wantPages {
			t.Errorf("%s: listed %q in %d pages, want %q in %d", tt.name, got, pages, tt.want, tt.wantPages)
		}
	}
}

// testPurge checks what Purge removes and keeps.
func testPurge(t *testing.T, s sellerstore.Store, clock *FakeClock) {
	ctx := context.Background()
	done := request("p1", "done", fpA)
	c := claim(t, s, done, sellerstore.Claimed)
	complete(t, s, done, c.Token, stored)
	abandoned := request("p1", "abandoned", fpA)
	claim(t, s, abandoned, sellerstore.Claimed)
	create(t, s, newTask("p1", "finished", task.Completed))
	create(t, s, newTask("p1", "waiting", task.InputRequired))
	clock.Advance(time.Hour)
	fresh := request("p1", "fresh", fpA)
	c = claim(t, s, fresh, sellerstore.Claimed)
	complete(t, s, fresh, c.Token, stored)
	live := request("p1", "live", fpA)
	claim(t, s, live, sellerstore.Claimed)

	// Nothing has expired yet at the present: the replay windows are open,
	// the abandoned claim's lease lapsed but the cutoff is before it.
	n, err := s.Purge(ctx, at(clock).Add(-time.Hour))
	if err != nil || n != (sellerstore.Purged{}) {
		t.Fatalf("Purge before anything expired: %+v, %v", n, err)
	}
	clock.Advance(retention)
	create(t, s, newTask("p1", "finished-later", task.Failed))
	n, err = s.Purge(ctx, at(clock).Add(-30*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	// Removed: "done" (window ended an hour ago), "abandoned" and "live"
	// (leases lapsed long ago), "finished" (final, old). Kept: "fresh"
	// (window ended at the present, after the cutoff), "finished-later",
	// "waiting" (interim tasks are never purged). A bounded store (Memory)
	// may have dropped some on its own already: at most these are counted,
	// and the state below is the same either way.
	if n.Idempotency > 3 || n.Tasks > 1 || n.Idempotency+n.Tasks == 0 {
		t.Fatalf("Purge: %+v, want at most 3 records and 1 task, and something", n)
	}
	claim(t, s, done, sellerstore.Claimed)
	claim(t, s, abandoned, sellerstore.Claimed)
	claim(t, s, fresh, sellerstore.Expired)
	_, err = s.GetTask(ctx, "p1", "finished")
	wantErr(t, "GetTask of a purged task", err, sellerstore.ErrNotFound)
	get(t, s, "p1", "finished-later")
	get(t, s, "p1", "waiting")
}
