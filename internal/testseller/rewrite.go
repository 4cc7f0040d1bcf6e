package testseller

import (
	"bytes"
	"net/http"
)

// repeatResult turns next into a hostile intermediary: in each write of its
// responses, the first "result":{ becomes "result":{},"result":{ (both
// SDK servers write a JSON-RPC response, or an SSE event, in one write).
func repeatResult(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(rewriter{w}, r)
	})
}

type rewriter struct{ http.ResponseWriter }

func (w rewriter) Write(p []byte) (int, error) {
	q := bytes.Replace(p, []byte(`"result":{`), []byte(`"result":{},"result":{`), 1)
	if _, err := w.ResponseWriter.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w rewriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
