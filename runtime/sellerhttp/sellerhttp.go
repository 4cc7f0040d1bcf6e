package sellerhttp

import (
	"net/http"
	"time"
)

// Defaults of Options, for a seller's API: bodies of up to about a
// megabyte from other servers, small answers, and event streams.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	DefaultMaxHeaderBytes    = 64 << 10
)

// Options are the server's limits; each zero field takes its default.
type Options struct {
	// ReadHeaderTimeout bounds reading a request's line and headers; 0 is
	// DefaultReadHeaderTimeout.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading the whole request, headers and body; 0
	// is DefaultReadTimeout.
	ReadTimeout time.Duration
	// WriteTimeout bounds each write and flush of a response; 0 is
	// DefaultWriteTimeout.
	WriteTimeout time.Duration
	// IdleTimeout bounds the wait for a keep-alive connection's next
	// request; 0 is DefaultIdleTimeout.
	IdleTimeout time.Duration
	// MaxHeaderBytes caps a request's line and headers; 0 is
	// DefaultMaxHeaderBytes.
	MaxHeaderBytes int
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	def(&o.ReadTimeout, DefaultReadTimeout)
	def(&o.WriteTimeout, DefaultWriteTimeout)
	def(&o.IdleTimeout, DefaultIdleTimeout)
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	return o
}

// New returns an http.Server serving h with o's limits: header, request,
// idle and size limits on the server, and WriteDeadlines around h. Serve
// it on a listener (Serve, ServeTLS) or on addr (ListenAndServe).
func New(addr string, h http.Handler, o Options) *http.Server {
	o = o.withDefaults()
	return &http.Server{
		Addr:              addr,
		Handler:           WriteDeadlines(h, o.WriteTimeout),
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    o.MaxHeaderBytes,
	}
}

// WriteDeadlines wraps h so that each write and flush of a response must
// complete within d (0 is DefaultWriteTimeout), however long the handler
// or the stream runs.
func WriteDeadlines(h http.Handler, d time.Duration) http.Handler {
	if d <= 0 {
		d = DefaultWriteTimeout
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		// Until the first write: the server's own (an interim 100
		// Continue) and a deadline left by the connection's last request.
		_ = rc.SetWriteDeadline(time.Now().Add(d))
		h.ServeHTTP(&writer{ResponseWriter: w, rc: rc, d: d}, r)
		// For what net/http writes once the handler returns (the headers
		// of a handler that wrote nothing, the buffered rest).
		_ = rc.SetWriteDeadline(time.Now().Add(d))
	})
}

// writer moves the write deadline ahead of each write and flush.
type writer struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *writer) WriteHeader(code int) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.d))
	w.ResponseWriter.WriteHeader(code)
}

func (w *writer) Write(p []byte) (int, error) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.d))
	return w.ResponseWriter.Write(p)
}

// Flush sends what the handler wrote, as the SDKs' event streams ask of
// their ResponseWriter (http.Flusher).
func (w *writer) Flush() {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.d))
	_ = w.rc.Flush()
}

// Unwrap is the ResponseWriter underneath, for http.ResponseController.
func (w *writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }
