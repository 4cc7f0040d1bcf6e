package main

import (
	"errors"
	"io"
	"net"
	"os"
	"time"
)

// slowClients are connections that sent a create_media_buy's headers and
// one byte of its 1000-byte body, and then nothing.
type slowClients []net.Conn

func openSlow(addr string, n int) (slowClients, error) {
	var out slowClients
	for range n {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			out.close()
			return nil, err
		}
		_, err = io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/json\r\n"+
			"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{")
		if err != nil {
			c.Close()
			out.close()
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// held counts the connections the seller has not closed: a read that
// times out finds the connection still open.
func (s slowClients) held() int {
	n := 0
	for _, c := range s {
		_ = c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
		if _, err := io.ReadAll(c); errors.Is(err, os.ErrDeadlineExceeded) {
			n++
		}
	}
	return n
}

func (s slowClients) close() {
	for _, c := range s {
		c.Close()
	}
}
