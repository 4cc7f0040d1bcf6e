// Package sellerhttp runs a seller's handlers (runtime/mcpserver,
// runtime/a2aserver, anything on one mux) behind an http.Server with the
// limits a public endpoint needs. New builds the server; WriteDeadlines
// is its per-write deadline, for a server of your own.
//
// What each limit stops:
//
//   - ReadHeaderTimeout: a client that opens a connection and sends its
//     headers slowly, or never.
//   - ReadTimeout: a client that sends its headers and then drips the
//     body, or stops: the whole request must arrive within it, else the
//     body's read fails, the gate answers HTTP 408 with a correctable
//     INVALID_REQUEST and the connection closes. Once the body is read
//     net/http lifts the deadline, so a handler runs as long as it needs.
//   - WriteTimeout: a client that stops reading: each write (and flush) of
//     a response must complete within it, so a slow handler's answer and a
//     long server-sent-event stream still go out while their client reads.
//     http.Server.WriteTimeout, counted from the request's start, would
//     cut both; New leaves it unset.
//   - IdleTimeout: keep-alive connections that send nothing more.
//   - MaxHeaderBytes: the request line and headers, together (HTTP 431).
//
// The body's size is the seller's to cap (seller.Options.MaxRequestBytes,
// checked by the gate before anything decodes it). Shut the server down
// with http.Server.Shutdown on SIGTERM so that calls in flight finish
// (examples/seller does).
package sellerhttp
