package a2ago_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/runtime"
	"github.com/adcpgen/adcpgen/runtime/a2ago"
)

type mediaBuy struct{ MediaBuyID string }

func (m *mediaBuy) UnmarshalJSON(b []byte) error {
	var raw struct {
		MediaBuyID string `json:"media_buy_id"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	m.MediaBuyID = raw.MediaBuyID
	return nil
}

func TestRoundTrips(t *testing.T) {
	info := &a2a.Task{ID: "task_1", ContextID: "ctx_1"}
	at := time.Date(2025, 1, 22, 10, 30, 0, 0, time.UTC)

	done, err := a2ago.CompletedTask(info, map[string]any{"media_buy_id": "mb_1"}, "Created.", at)
	if err != nil {
		t.Fatal(err)
	}
	v, err := a2ago.DecodeTask[mediaBuy](done)
	if err != nil || v.MediaBuyID != "mb_1" {
		t.Fatalf("completed: %+v, %v", v, err)
	}

	failed, err := a2ago.FailedTask(info, &runtime.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", RetryAfter: 5 * time.Second}, "", at)
	if err != nil {
		t.Fatal(err)
	}
	if failed.Status.State != a2a.TaskStateFailed || len(failed.Artifacts) != 1 || len(failed.Artifacts[0].Parts) != 2 {
		t.Fatalf("failed task shape: %+v", failed)
	}
	r, err := a2ago.Extract(runtime.Extractor{}, failed)
	if err != nil || r.Error == nil || r.Action != runtime.ActionRetry || r.RetryAfter != 5*time.Second || r.State != "failed" {
		t.Fatalf("failed: %+v, %v", r, err)
	}
	_, err = a2ago.DecodeTask[mediaBuy](failed)
	if !errors.Is(err, &runtime.Error{Code: "RATE_LIMITED"}) {
		t.Fatalf("DecodeTask on a failed task: %v", err)
	}

	// A status update event carries interim data in its status message.
	ev := a2a.NewStatusUpdateEvent(done, a2a.TaskStateWorking, a2a.NewMessage(a2a.MessageRoleAgent,
		a2a.TextPart{Text: "Working"}, a2a.DataPart{Data: map[string]any{"percentage": 45}}))
	r, err = a2ago.Extract(runtime.Extractor{}, ev)
	if err != nil || string(r.Data) != `{"percentage":45}` || r.State != "working" {
		t.Fatalf("status update: %s %q %v", r.Data, r.State, err)
	}

	// Wrappers are rejected, not unwrapped.
	wrapped := &a2a.Task{ID: "t", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted},
		Artifacts: []*a2a.Artifact{{Parts: a2a.ContentParts{a2a.DataPart{Data: map[string]any{"response": map[string]any{}}}}}}}
	if _, err := a2ago.DecodeTask[mediaBuy](wrapped); !errors.Is(err, runtime.ErrWrapperDetected) {
		t.Fatalf("wrapper: %v", err)
	}
	if _, err := a2ago.Extract(runtime.Extractor{}, nil); err == nil {
		t.Error("nil event accepted")
	}
}

func TestFileURIs(t *testing.T) {
	task := &a2a.Task{
		Status: a2a.TaskStatus{State: a2a.TaskStateCompleted, Message: a2a.NewMessage(a2a.MessageRoleAgent,
			a2a.FilePart{File: a2a.FileURI{URI: "https://seller.example.com/report.pdf"}})},
		Artifacts: []*a2a.Artifact{{Parts: a2a.ContentParts{a2a.FilePart{File: a2a.FileURI{URI: "javascript:alert(1)"}}, a2a.FilePart{File: a2a.FileBytes{Bytes: "AA=="}}}}, nil},
	}
	uris := a2ago.FileURIs(task)
	if len(uris) != 2 || uris[0] != "javascript:alert(1)" {
		t.Fatalf("uris = %q", uris)
	}
	if _, err := runtime.CheckSellerURL(uris[0], "seller.example.com"); err == nil {
		t.Error("javascript: URI accepted")
	}
	if _, err := runtime.CheckSellerURL(uris[1], "seller.example.com"); err != nil {
		t.Error(err)
	}
}
