package a2ago_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/a2ago"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
)

var x = extract.New(nil)

func TestRoundTrips(t *testing.T) {
	// The tasks a seller on a2a-go sends: a2aserver.TaskOf, as
	// seller.Server's A2A transport.
	at := time.Date(2025, 1, 22, 10, 30, 0, 0, time.UTC)
	done := a2aserver.TaskOf(&seller.Answer{Status: task.Completed, TaskID: "task_1", Body: json.RawMessage(`{"media_buy_id":"mb_1"}`), Message: "Created."}, "ctx_1", at, false)
	var v adcpt.CreateMediaBuySuccess
	err := a2ago.DecodeEvent(x, done, &v)
	if err != nil || v.MediaBuyID != "mb_1" {
		t.Fatalf("completed: %+v, %v", v, err)
	}

	failed := a2aserver.TaskOf(seller.ErrorAnswer(&adcperr.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", Recovery: registry.Transient, RetryAfter: 5 * time.Second}), "ctx_1", at, false)
	if failed.Status.State != a2a.TaskStateFailed || len(failed.Artifacts) != 1 || len(failed.Artifacts[0].Parts) != 2 {
		t.Fatalf("failed task shape: %+v", failed)
	}
	r, err := a2ago.ExtractEvent(x, failed)
	if err != nil || r.Error == nil || r.Action != adcperr.ActionRetry || r.Error.RetryAfter != 5*time.Second || r.State != "failed" {
		t.Fatalf("failed: %+v, %v", r, err)
	}
	err = a2ago.DecodeEvent(x, failed, &v)
	if !errors.Is(err, &adcperr.Error{Code: "RATE_LIMITED"}) {
		t.Fatalf("DecodeTask on a failed task: %v", err)
	}

	// A status update event carries interim data in its status message.
	ev := a2a.NewStatusUpdateEvent(done, a2a.TaskStateWorking, a2a.NewMessage(a2a.MessageRoleAgent,
		a2a.TextPart{Text: "Working"}, a2a.DataPart{Data: map[string]any{"percentage": 45}}))
	r, err = a2ago.ExtractEvent(x, ev)
	if err != nil || string(r.Data) != `{"percentage":45}` || r.State != "working" {
		t.Fatalf("status update: %s %q %v", r.Data, r.State, err)
	}

	// Wrappers are rejected, not unwrapped.
	wrapped := &a2a.Task{ID: "t", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted},
		Artifacts: []*a2a.Artifact{{Parts: a2a.ContentParts{a2a.DataPart{Data: map[string]any{"response": map[string]any{}}}}}}}
	if err := a2ago.DecodeEvent(x, wrapped, &v); !errors.Is(err, extract.ErrWrapperDetected) {
		t.Fatalf("wrapper: %v", err)
	}
	if _, err := a2ago.ExtractEvent(x, nil); err == nil {
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
	if _, err := untrusted.CheckSellerURL(uris[0], "seller.example.com"); err == nil {
		t.Error("javascript: URI accepted")
	}
	if _, err := untrusted.CheckSellerURL(uris[1], "seller.example.com"); err != nil {
		t.Error(err)
	}
}
