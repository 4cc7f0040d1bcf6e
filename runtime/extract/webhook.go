package extract

import (
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Webhook extracts from a webhook payload. The MCP form is recognised when
// task_id is truthy and status is a string; its `result` (any non-null
// value) is Data. Anything else is read as an A2A task or stream response
// (see A2A) for Data. Error is the validated adcp_error when Data is an
// object holding a truthy one; Action is its action, else generic_error
// when the webhook reports failure (status or task state failed or
// rejected). State is the MCP status or the A2A state, normalised.
func (x *Extractor) Webhook(payload []byte) *Result {
	r := &Result{}
	v, ok := parse(payload, r)
	if !ok {
		return r
	}
	var f found
	if v.Get("task_id").Truthy() && v.Get("status").IsString() {
		r.Form = FormMCPWebhook
		s, _ := v.Get("status").AsString()
		r.State = normalizeState(s)
		if res := v.Get("result"); res.Present() && !res.IsNull() {
			r.Data, r.DataPath = res.Raw(), "result"
		}
	} else {
		task, key, nested := unwrapStream(v)
		switch {
		case key != "":
			r.Form = FormStream
		case task.taskMembers:
			r.Form = FormTask
		default:
			r.shape = describe(v, "an MCP webhook payload, an A2A task or a stream response")
		}
		r.State = task.state()
		prefix := ""
		if key != "" {
			prefix = key + "."
		}
		if !nested {
			if task.obj.IsObject() {
				r.Task = task.obj
			}
			data, path, err := a2aData(task, prefix)
			if err != nil {
				r.Problem = err
			} else if data != nil {
				r.Data, r.DataPath = data.Raw(), path
			}
		}
	}
	if ae := wire.Lenient(r.Data).Get("adcp_error"); ae.Truthy() {
		x.setError(r, &f, ae, r.DataPath+".adcp_error")
	}
	r.finish(&f, r.State == "failed" || r.State == "rejected")
	return r
}
