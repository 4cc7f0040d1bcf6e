package sellertask

import (
	"context"
	"errors"
	"github.com/adcpgen/adcpgen/runtime/internal/storekit"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// maxListPage is the largest page list_tasks serves (pagination-request's
// max_results maximum).
const maxListPage = 100

// listHandler answers list_tasks and tasks/list: the caller's tasks, newest
// first, filtered by status, task type, task id and webhook, a page at a
// time, within the call's account (ofAccount).
// Other filters and sort orders are not applied, and query_summary says
// which were.
func (m *Manager) listHandler() seller.Dispatch {
	return func(ctx context.Context, c *seller.Call) *seller.Answer {
		args := wire.Lenient(c.Arguments)
		filters := args.Get("filters")
		var applied []string
		q := sellerstore.TaskQuery{Limit: sellerstore.DefaultPageSize}
		statuses, onlyUnknown := statusFilter(filters)
		if len(statuses) > 0 || onlyUnknown {
			applied = append(applied, "statuses")
			q.Statuses = statuses
		}
		if tools := stringsOf(filters.Get("task_types"), filters.Get("task_type")); len(tools) > 0 {
			applied = append(applied, "task_types")
			q.Tools = tools
		}
		page := args.Get("pagination")
		if n, ok := page.Get("max_results").Number(); ok && n >= 1 {
			q.Limit = min(int(n), maxListPage)
		}
		q.Cursor, _ = page.Get("cursor").AsString()
		ids := stringsOf(filters.Get("task_ids"))
		account := wire.Lenient(c.Member("account"))
		hook := filters.Get("has_webhook")
		if hook.Present() {
			applied = append(applied, "has_webhook")
		}
		keep := func(t sellerstore.Task) bool {
			return ofAccount(t, account) && (!hook.Present() || (string(hook) == "true") == (len(t.PushConfig) > 0))
		}
		total := -1 // unknown: the store's pages are not counted
		var tasks []sellerstore.Task
		next := ""
		principal := principalID(c.Principal.ID)
		switch {
		case onlyUnknown: // no stored task is "unknown"
		case len(ids) > 0:
			applied = append(applied, "task_ids")
			for _, id := range ids {
				t, err := m.store.GetTask(ctx, principal, id)
				if errors.Is(err, sellerstore.ErrNotFound) || errors.Is(err, sellerstore.ErrInvalid) {
					continue
				}
				if err != nil {
					return m.storeFailed(c, err)
				}
				if q.Matches(t) && keep(t) {
					tasks = append(tasks, t)
				}
			}
			total = len(tasks)
			if len(tasks) > q.Limit {
				tasks = tasks[:q.Limit]
			}
		default:
			p, err := m.store.ListTasks(ctx, principal, q)
			if errors.Is(err, sellerstore.ErrInvalid) {
				e := &adcperr.Error{Code: m.pick("INVALID_REQUEST"), Message: "pagination.cursor is not a cursor this agent issued", Field: "pagination.cursor"}
				e.Recovery, _ = m.spec.Recovery(e.Code)
				return seller.ErrorAnswer(e)
			}
			if err != nil {
				return m.storeFailed(c, err)
			}
			for _, t := range p.Tasks {
				if keep(t) {
					tasks = append(tasks, t)
				}
			}
			next = p.Next
			if next == "" && q.Cursor == "" {
				total = len(tasks)
			}
		}
		var e wire.Encoder
		e.ObjectStart()
		e.Key("query_summary")
		e.ObjectStart()
		if total >= 0 {
			e.Key("total_matching")
			e.Int(int64(total))
		}
		e.Key("returned")
		e.Int(int64(len(tasks)))
		e.Key("filters_applied")
		e.ArrayStart()
		for _, f := range applied {
			e.String(f)
		}
		e.ArrayEnd()
		e.Key("sort_applied")
		e.Literal(`{"field":"created_at","direction":"desc"}`)
		e.ObjectEnd()
		e.Key("tasks")
		e.ArrayStart()
		for _, t := range tasks {
			e.ObjectStart()
			m.taskMembers(&e, t, "domain")
			e.ObjectEnd()
		}
		e.ArrayEnd()
		e.Key("pagination")
		e.ObjectStart()
		e.Key("has_more")
		e.Bool(next != "")
		if next != "" {
			e.Key("cursor")
			e.String(next)
		}
		e.ObjectEnd()
		e.ObjectEnd()
		return &seller.Answer{Status: task.Completed, Body: e.Bytes()}
	}
}

// statusFilter reads filters.statuses and filters.status. onlyUnknown
// reports a filter naming nothing but "unknown", which no stored task has.
func statusFilter(filters wire.Lenient) (statuses []task.Status, onlyUnknown bool) {
	named := stringsOf(filters.Get("statuses"), filters.Get("status"))
	for _, s := range named {
		if st := task.Status(s); storekit.StorableStatus(st) {
			statuses = append(statuses, st)
		}
	}
	return statuses, len(named) > 0 && len(statuses) == 0
}

// stringsOf collects the strings of arrays and single strings.
func stringsOf(vs ...wire.Lenient) []string {
	var out []string
	for _, v := range vs {
		if s, ok := v.AsString(); ok {
			out = append(out, s)
			continue
		}
		v.Elems(func(e wire.Lenient) bool {
			if s, ok := e.AsString(); ok {
				out = append(out, s)
			}
			return true
		})
	}
	return out
}
