package sellerhttp_test

import (
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/adcpgen/adcpgen/runtime/sellerhttp"
)

// A seller's mux (mcpserver's and a2aserver's handlers) behind a server
// with the default limits, on loopback; shut it down with Shutdown on
// SIGTERM.
func ExampleNew() {
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "the MCP endpoint") })
	hs := sellerhttp.New("", mux, sellerhttp.Options{}) // Options{ReadTimeout: ...} changes one limit
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go hs.Serve(ln)
	defer hs.Close()

	resp, err := http.Get("http://" + ln.Addr().String() + "/mcp")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(string(body), hs.ReadHeaderTimeout, hs.ReadTimeout, hs.IdleTimeout)
	// Output: the MCP endpoint 10s 30s 2m0s
}
