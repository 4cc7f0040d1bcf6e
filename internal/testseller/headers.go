package testseller

import (
	"net/http"
	"sync"
)

// headerLog records the headers of every request a seller receives.
type headerLog struct {
	mu  sync.Mutex
	all []http.Header
}

func (l *headerLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.all = append(l.all, r.Header.Clone())
		l.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

// Headers returns the headers of every request received so far, in order.
func (l *headerLog) Headers() []http.Header {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]http.Header(nil), l.all...)
}
