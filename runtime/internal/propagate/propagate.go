// Package propagate puts the trace context a buyer's Observer injects
// (buyer.ToolCall.Trace) on the HTTP requests of its transports.
package propagate

import "net/http"

// WithHeaders returns req with each field of trace set as a header, on a
// copy: a RoundTripper must not change the request it is given.
func WithHeaders(req *http.Request, trace map[string]string) *http.Request {
	if len(trace) == 0 {
		return req
	}
	out := *req
	out.Header = req.Header.Clone()
	if out.Header == nil {
		out.Header = http.Header{}
	}
	for k, v := range trace {
		out.Header.Set(k, v)
	}
	return &out
}
