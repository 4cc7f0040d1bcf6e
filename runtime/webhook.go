package runtime

import (
	"encoding/json"
)

// WebhookFormat is the shape of a webhook payload.
type WebhookFormat string

const (
	// WebhookMCP is the flat MCP envelope: {"task_id", "status", "result", ...}.
	WebhookMCP WebhookFormat = "mcp"
	// WebhookA2A is a native A2A Task (or a stream envelope holding one).
	WebhookA2A WebhookFormat = "a2a"
)

// detectWebhookFormat is the MCP envelope when task_id is truthy and status
// is a string, else A2A.
func detectWebhookFormat(v jval) WebhookFormat {
	if v.get("task_id").truthy() && v.get("status").isString() {
		return WebhookMCP
	}
	return WebhookA2A
}

// Webhook extracts from a webhook payload. MCP envelopes yield `result`
// (any non-null value) as Data; A2A payloads are handled as A2A data
// extraction (see A2A). Error is the validated adcp_error when Data is an
// object holding a truthy one; Action is its action, else generic_error when
// the webhook reports failure (status or task state failed or rejected).
// State is the MCP status or the A2A state, normalised.
func (x Extractor) Webhook(payload []byte) *Result {
	r := &Result{}
	v, ok := parse(payload, r)
	if !ok {
		return r
	}
	var f found
	r.Format = detectWebhookFormat(v)
	if r.Format == WebhookMCP {
		s, _ := v.get("status").str()
		r.State = NormalizeA2AState(s)
		if res := v.get("result"); res.present() && !res.isNull() {
			r.Data, r.DataPath = res.raw(), "result"
		}
	} else {
		task, key, nested := unwrapStream(v)
		r.State = task.state()
		if !nested {
			prefix := ""
			if key != "" {
				prefix = key + "."
			}
			data, path, err := a2aData(task, prefix)
			if err != nil {
				r.Problem, r.Err = ProblemWrapperDetected, err
			} else if data != nil {
				r.Data, r.DataPath = data.raw(), path
			}
		}
	}
	if ae := jval(r.Data).get("adcp_error"); ae.truthy() {
		x.setError(r, &f, ae, r.DataPath+".adcp_error")
	}
	r.finish(&f, r.State == "failed" || r.State == "rejected")
	return r
}

// WebhookData is the data of a webhook payload (see Extractor.Webhook) and
// its detected format. A2A wrappers and invalid JSON are errors.
func WebhookData(payload []byte) (json.RawMessage, WebhookFormat, error) {
	r := ExtractWebhook(payload)
	if r.Problem == ProblemInvalidJSON || r.Problem == ProblemWrapperDetected {
		return nil, r.Format, r.Err
	}
	return r.Data, r.Format, nil
}
