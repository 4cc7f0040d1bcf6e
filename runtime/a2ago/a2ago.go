// Package a2ago connects the AdCP runtime to github.com/a2aproject/a2a-go
// for code that holds a2a-go's values: extraction and typed decoding of
// a2a.Task values and events, with the Extractor you pass.
//
// Most users want runtime/buyer: buyer.Call and the typed client call a
// skill, decode the answer strictly from the bytes the seller sent and
// follow its task to the end; this package is the layer under it for a
// program that already drives a2a-go's client itself. A seller on a2a-go
// answers with runtime/a2aserver's TaskOf, the builder seller.Server's A2A
// transport uses, so both send the same bytes.
//
// a2a-go holds DataPart data as Go maps, which lose duplicate keys, key
// order and the precision of large numbers; give the raw JSON to
// extract.Extractor.A2A where bytes matter.
package a2ago

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/runtime/extract"
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
