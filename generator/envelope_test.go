package generator

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// The envelope tables of each published version: which members of the
// protocol envelope a tool's payload schemas own, narrow, declare as
// their own, or close to. These are the facts the seller fills and the
// buyer reads by; each row is one the spec's text states.
func TestEnvelopeTables(t *testing.T) {
	all := registry.EnvelopeMembers()
	submitted := registry.Envelope{Members: []string{"status", "task_id", "message"}, Statuses: []string{"submitted"}}
	type row struct {
		tool, status string // status "" is the response schema
		want         registry.Envelope
	}
	for _, tc := range []struct {
		version, source string
		envelope        int // members of core/protocol-envelope.json
		rows            []row
	}{
		{"2.5.3", "schemas/2.5.3", 7, []row{
			{"get_products", "", registry.Envelope{}},
		}},
		{"3.0.26", "protocol/3.0.26.tgz", 9, []row{
			{"get_products", "", registry.Envelope{}},
			// The submitted arm's status is the task's (const "submitted"),
			// the success arm's the media buy's.
			{"create_media_buy", "", registry.Envelope{Members: []string{"status", "task_id", "message"}, Statuses: []string{"submitted"}, Payload: []string{"status"}}},
			{"create_media_buy", "submitted", registry.Envelope{}},
			{"create_property_list", "", registry.Envelope{Members: []string{"replayed"}}},
		}},
		{"3.1.19", "schemas/3.1.19", 11, []row{
			{"get_products", "", registry.Envelope{Members: all}},
			// The success arm's deprecated status (a MediaBuyStatus) shares
			// the key the envelope reserves: the envelope's.
			{"create_media_buy", "", registry.Envelope{Members: all, Payload: []string{"status"}}},
			{"create_media_buy", "submitted", submitted},
			{"get_adcp_capabilities", "", registry.Envelope{Members: all}},
			// A status tool reports another task.
			{"get_task_status", "", registry.Envelope{Members: []string{"message", "context_id", "replayed"}, Payload: []string{"status", "task_id"}}},
		}},
		{"3.2.0-beta.5", "schemas/3.2.0-beta.5", 11, []row{
			{"create_media_buy", "", registry.Envelope{Members: all}},
			{"create_media_buy", "submitted", submitted},
			// Compact tools close their schemas and fix status to
			// "submitted" where they carry it.
			{"decline_proposals", "", registry.Envelope{Members: []string{"status", "task_id", "message", "replayed"}, Statuses: []string{"submitted"}, Closed: true}},
			{"list_products", "", registry.Envelope{Members: []string{"replayed"}, Closed: true}},
		}},
	} {
		t.Run(tc.version, func(t *testing.T) {
			tree, err := spec.Open(filepath.Join(testspec.Dir(t), tc.source))
			if err != nil {
				t.Fatal(err)
			}
			s, _, err := SpecTable(tree)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(s.Envelope()); got != tc.envelope {
				t.Errorf("envelope members %v, want %d", s.Envelope(), tc.envelope)
			}
			for _, r := range tc.rows {
				tool, ok := s.Tool(r.tool)
				if !ok {
					t.Errorf("no tool %s", r.tool)
					continue
				}
				got := tool.Envelope
				if r.status != "" {
					a, ok := tool.AsyncFor(r.status)
					if !ok {
						t.Errorf("%s: no %s payload", r.tool, r.status)
						continue
					}
					got = a.Envelope
				}
				if !reflect.DeepEqual(got, r.want) {
					t.Errorf("%s %s: %+v, want %+v", r.tool, r.status, got, r.want)
				}
			}
		})
	}
}
