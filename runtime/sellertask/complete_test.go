package sellertask_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellerrig"
	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/testcontroller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// On every published version, over MCP on loopback: comply_test_controller's
// force_task_completion (testcontroller.TaskCompletion, on
// seller.Server.CompleteTask) records the result the buyer gives as the
// task's final answer, its own context kept, refusing a result its
// release's response schema refuses (the task stays open), another
// principal's task and a task that ended; and from 3.1 the status tools
// scope tasks to the account the call names (AdCP: task reconciliation is
// per account and principal): another account's task is a missing one.
func TestForceTaskCompletion(t *testing.T) {
	for _, v := range specseller.Versions {
		t.Run(v.Version, func(t *testing.T) {
			tree, sp := specseller.Open(t, v.Version)
			tasks := sellertask.New(sp, sellertask.Options{Store: sellerstore.NewMemory(nil)})
			t.Cleanup(func() { _ = tasks.Close(context.Background()) })
			srv, err := seller.New(sp, seller.Options{Schemas: tree, ValidateResponses: true, Authenticator: sellerrig.Authenticator(), Tasks: tasks})
			if err != nil {
				t.Fatal(err)
			}
			tool, _ := sp.Tool("create_media_buy")
			srv.HandleRaw(seller.RawTool{Name: tool.Name, RequestSchema: tool.RequestSchema, ResponseSchema: tool.ResponseSchema,
				Handler: func(ctx context.Context, c *seller.Call) *seller.Answer {
					id, err := tasks.Start(ctx, c)
					if err != nil {
						return seller.ErrorAnswer(srv.TaskNotFound(err.Error()))
					}
					return &seller.Answer{Status: task.Submitted, TaskID: id, Body: []byte(`{}`)}
				}})
			tasks.ServeStatusTools(srv)
			ctl, err := testcontroller.New(srv, testcontroller.Options{Sandbox: func(context.Context, *seller.Call) bool { return true }})
			if err != nil {
				t.Fatal(err)
			}
			ctl.Handle(testcontroller.ForceTaskCompletion, testcontroller.TaskCompletion(srv))
			url := sellerrig.ServeMCP(t, srv)
			buyer := sellerrig.ConnectMCP(t, url, sellerrig.KeyOf("buyer-a"), extract.New(sp))
			other := sellerrig.ConnectMCP(t, url, sellerrig.KeyOf("buyer-b"), extract.New(sp))

			read := func(name string) string {
				b, err := os.ReadFile(filepath.Join("..", "..", "internal", "versions", "testdata", v.Version, name))
				if err != nil {
					t.Fatal(err)
				}
				return strings.TrimSpace(string(b))
			}
			sub := buyer.Call(t.Context(), "create_media_buy", read("create-media-buy-request.json"))
			if sub.Err != nil || sub.CallErr != nil || sub.TaskID == "" {
				t.Fatalf("create_media_buy: %+v %v %s", sub.Err, sub.CallErr, sub.Data)
			}
			// The buyer's result, with a context of its own.
			result := strings.TrimSuffix(read("create-media-buy-success.json"), "}") + `,"context":{"correlation_id":"terminal"}}`
			later := !strings.HasPrefix(v.Version, "3.0.")
			account := ""
			if later { // 3.1 requires the sandbox assertion
				account = `"account":{"brand":{"domain":"test.example"},"operator":"test.example","sandbox":true},`
			}
			complete := func(b *sellerrig.Buyer, id, result string) string {
				o := b.Call(t.Context(), testcontroller.ToolName,
					`{`+account+`"scenario":"force_task_completion","params":{"task_id":"`+id+`","result":`+result+`}}`)
				if o.Err != nil || o.CallErr != nil {
					t.Fatalf("force_task_completion: %+v %v", o.Err, o.CallErr)
				}
				return string(o.Data)
			}
			for _, c := range []struct {
				name   string
				buyer  *sellerrig.Buyer
				id     string
				result string
				want   []string // in the controller's answer
			}{
				{"a result its release refuses", buyer, sub.TaskID, `{"packages":"none"}`, []string{`"success":false`, `"error":"INVALID_PARAMS"`}},
				{"another principal's task", other, sub.TaskID, result, []string{`"success":false`, `"error":"NOT_FOUND"`}},
				{"no such task", buyer, "task_none", result, []string{`"error":"NOT_FOUND"`}},
				{"the result", buyer, sub.TaskID, result, []string{`"success":true`, `"previous_state":"submitted"`, `"current_state":"completed"`}},
				{"a task that ended", buyer, sub.TaskID, result, []string{`"success":false`, `"error":"INVALID_TRANSITION"`, `"current_state":"completed"`}},
			} {
				if got := complete(c.buyer, c.id, c.result); !containsAll(got, c.want) {
					t.Errorf("%s: %s (want %q)", c.name, got, c.want)
				}
			}

			status := "tasks/get"
			if later {
				status = "get_task_status"
			}
			got := buyer.Call(t.Context(), status, `{"task_id":"`+sub.TaskID+`","include_result":true}`)
			r := wire.Lenient(got.Data).Get("result")
			if got.Err != nil || got.CallErr != nil || got.Member("status") != "completed" ||
				string(r.Get("media_buy_id")) != `"mb_1"` || string(r.Get("context").Get("correlation_id")) != `"terminal"` {
				t.Fatalf("%s: %+v %v %s", status, got.Err, got.CallErr, got.Data)
			}
			if !later {
				return // 3.0's status tools name no account
			}
			for _, c := range []struct {
				name, account string
				found         bool
			}{
				{"the task's account", `{"account_id":"acct_example"}`, true},
				{"another account", `{"account_id":"acct_other"}`, false},
				{"an account of another kind", `{"brand":{"domain":"test.example"},"operator":"test.example"}`, true},
			} {
				st := buyer.Call(t.Context(), "get_task_status", `{"task_id":"`+sub.TaskID+`","account":`+c.account+`}`)
				if (st.Err == nil && st.CallErr == nil) != c.found {
					t.Errorf("get_task_status, %s: %+v %v %s", c.name, st.Err, st.CallErr, st.Data)
				}
				ls := buyer.Call(t.Context(), "list_tasks", `{"account":`+c.account+`,"filters":{"task_ids":["`+sub.TaskID+`"],"has_webhook":false}}`)
				want := map[bool]string{true: "1", false: "0"}[c.found]
				if q := wire.Lenient(ls.Data).Get("query_summary"); ls.Err != nil || string(q.Get("total_matching")) != want || string(q.Get("returned")) != want {
					t.Errorf("list_tasks, %s: %+v %s", c.name, ls.Err, ls.Data)
				}
			}
			// has_webhook filters: this task registered none.
			ls := buyer.Call(t.Context(), "list_tasks", `{"filters":{"has_webhook":true}}`)
			if q := wire.Lenient(ls.Data).Get("query_summary"); ls.Err != nil || string(q.Get("total_matching")) != "0" {
				t.Errorf("list_tasks with has_webhook: %+v %s", ls.Err, ls.Data)
			}
		})
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
