// Package a2ago connects the AdCP runtime to github.com/a2aproject/a2a-go:
// extraction and typed decoding of a2a.Task values and events, with the
// Extractor you pass, and a2a.Task values for sellers.
//
// a2a-go holds DataPart data as Go maps, which lose duplicate keys, key
// order and the precision of large numbers; give the raw JSON to
// extract.Extractor.A2A where bytes matter.
package a2ago

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// ExtractEvent runs A2A extraction (extract.Extractor.A2A) on a Task,
// TaskStatusUpdateEvent, TaskArtifactUpdateEvent or Message.
func ExtractEvent(x *extract.Extractor, ev a2a.Event) (*extract.Result, error) {
	body, err := eventJSON(ev)
	if err != nil {
		return nil, err
	}
	return x.A2A(body), nil
}

// DecodeEvent extracts a task or event, as ExtractEvent does, and decodes
// its data into dst with its strict decoder (see
// extract.Extractor.DecodeA2A).
func DecodeEvent(x *extract.Extractor, ev a2a.Event, dst wire.Decodable) error {
	body, err := eventJSON(ev)
	if err != nil {
		return err
	}
	return x.DecodeA2A(body, dst)
}

func eventJSON(ev a2a.Event) ([]byte, error) {
	if ev == nil {
		return nil, errors.New("a2ago: nil event")
	}
	body, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("a2ago: encoding the %T: %w", ev, err)
	}
	return body, nil
}

// FileURIs lists the URIs of a task's FileParts, to check with
// untrusted.CheckSellerURL before following any.
func FileURIs(task *a2a.Task) []string {
	var out []string
	add := func(parts a2a.ContentParts) {
		for _, p := range parts {
			if fp, ok := p.(a2a.FilePart); ok {
				if u, ok := fp.File.(a2a.FileURI); ok {
					out = append(out, u.URI)
				}
			}
		}
	}
	for _, a := range task.Artifacts {
		if a != nil {
			add(a.Parts)
		}
	}
	if task.Status.Message != nil {
		add(task.Status.Message.Parts)
	}
	return out
}

// FailedTask builds the failed task of seller.NewA2AFailedTask as an
// a2a.Task for the task p identifies (an *a2a.Task, a request context):
// state failed, an artifact "error-result" with a TextPart and a DataPart
// {"adcp_error": ...} tagged with seller.ErrorMIMEType.
func FailedTask(p a2a.TaskInfoProvider, e *adcperr.Error, text string, at time.Time) (*a2a.Task, error) {
	info := p.TaskInfo()
	t, err := seller.NewA2AFailedTask(string(info.TaskID), info.ContextID, e, text, at)
	if err != nil {
		return nil, err
	}
	return toSDK(t)
}

// CompletedTask builds the completed task of seller.NewA2ACompletedTask.
func CompletedTask(p a2a.TaskInfoProvider, data any, text string, at time.Time) (*a2a.Task, error) {
	info := p.TaskInfo()
	t, err := seller.NewA2ACompletedTask(string(info.TaskID), info.ContextID, data, text, at)
	if err != nil {
		return nil, err
	}
	return toSDK(t)
}

func toSDK(t *seller.A2ATask) (*a2a.Task, error) {
	out := &a2a.Task{ID: a2a.TaskID(t.ID), ContextID: t.ContextID, Status: a2a.TaskStatus{State: a2a.TaskState(t.Status.State)}}
	if t.Status.Timestamp != "" {
		ts, err := time.Parse(time.RFC3339, t.Status.Timestamp)
		if err != nil {
			return nil, err
		}
		out.Status.Timestamp = &ts
	}
	for _, a := range t.Artifacts {
		art := &a2a.Artifact{ID: a2a.ArtifactID(a.ArtifactID)}
		for _, p := range a.Parts {
			var meta map[string]any
			for k, v := range p.Metadata {
				if meta == nil {
					meta = map[string]any{}
				}
				meta[k] = v
			}
			if p.Data == nil {
				art.Parts = append(art.Parts, a2a.TextPart{Text: p.Text, Metadata: meta})
				continue
			}
			data, err := objectMap(p.Data)
			if err != nil {
				return nil, err
			}
			art.Parts = append(art.Parts, a2a.DataPart{Data: data, Metadata: meta})
		}
		out.Artifacts = append(out.Artifacts, art)
	}
	return out, nil
}

// objectMap decodes a JSON object keeping numbers exact (json.Number).
func objectMap(raw json.RawMessage) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("a2ago: data part: %w", err)
	}
	return m, nil
}
