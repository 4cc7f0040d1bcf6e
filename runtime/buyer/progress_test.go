package buyer_test

import (
	"reflect"
	"testing"

	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// OnProgress sees the call's own interim answer and every poll that finds
// the task still interim, never the final state; Wait starts from no
// answer of its own.
func TestOnProgress(t *testing.T) {
	for _, f := range framings {
		t.Run(string(f), func(t *testing.T) {
			r := newRig(t, f, scripted(map[string][]answer{
				"create_thing": {{state: task.Submitted, payload: `{"status":"submitted","task_id":"task-9"}`}},
				"get_task_status": {
					{payload: `{"task_id":"task-9","status":"working"}`},
					{payload: `{"task_id":"task-9","status":"completed","result":{"thing":{"thing_id":"t-9","name":"made"}}}`},
					{payload: `{"task_id":"task-9","status":"working"}`},
					{payload: `{"task_id":"task-9","status":"completed","result":{"thing":{"thing_id":"t-9","name":"made"}}}`},
				},
			}))
			var seen []string
			progress := buyer.OnProgress(func(o *buyer.Reply) {
				seen = append(seen, string(o.Status)+" "+o.TaskID)
			})
			res, err := buyer.Call(t.Context(), r.client, tinyadcp.Tools.CreateThing, &tinyadcp.CreateThingRequest{Name: "made"},
				buyer.WaitForCompletion(), progress)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != task.Completed {
				t.Fatalf("%+v", res)
			}
			if want := []string{"submitted task-9", "working task-9"}; !reflect.DeepEqual(seen, want) {
				t.Errorf("Call saw %q, want %q", seen, want)
			}
			seen = nil
			out, err := r.client.WaitTask(t.Context(), "create_thing", "task-9", progress)
			if err != nil {
				t.Fatal(err)
			}
			if out.Status != task.Completed {
				t.Fatalf("%+v", out)
			}
			if want := []string{"working task-9"}; !reflect.DeepEqual(seen, want) {
				t.Errorf("WaitTask saw %q, want %q", seen, want)
			}
		})
	}
}
