package seller

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
)

func TestMemoryTasksDropEndedTasksAfterRetention(t *testing.T) {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	m := newMemoryTasks(func() time.Time { return now })
	ctx := context.Background()
	call := &Call{Tool: registry.Tool{Name: "create_media_buy"}, Principal: Principal{ID: "buyer"}}
	start := func() string {
		t.Helper()
		id, err := m.Start(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	ended, open := start(), start()
	if err := m.Update(ctx, TaskEvent{ID: ended, Principal: "buyer", Tool: "create_media_buy", Answer: &Answer{Status: task.Completed}}); err != nil {
		t.Fatal(err)
	}

	now = now.Add(memoryTaskRetention - time.Minute)
	start() // sweeps: nothing is old enough yet
	if _, err := m.Get(ctx, "buyer", ended); err != nil {
		t.Fatalf("ended task inside the retention: %v", err)
	}

	now = now.Add(2 * time.Minute)
	start() // sweeps: the ended task is past the retention
	if _, err := m.Get(ctx, "buyer", ended); !errors.Is(err, ErrTaskNotFound) {
		t.Fatalf("ended task past the retention: err = %v, want ErrTaskNotFound", err)
	}
	if snap, err := m.Get(ctx, "buyer", open); err != nil || snap.Status != task.Submitted {
		t.Fatalf("open task: %+v, %v; want it kept as submitted", snap, err)
	}
}
