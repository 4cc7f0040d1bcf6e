package mcpclient

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// The SDK gets every event as sent but the first answer to a claimed call,
// whose data becomes the stand-in result; the recorder gets that answer's
// bytes as sent, however the body is cut.
func TestEventStub(t *testing.T) {
	answer := `{"jsonrpc":"2.0","id":3,"result":{"structuredContent":{"a":1,"a":2}}}`
	stream := "id: e1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n" +
		": a comment\n" +
		"id: e2\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\r\ndata: \"result\":{\"structuredContent\":{\"a\":1,\"a\":2}}}\r\n\r\n" +
		"id: e3\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"late\":true}}\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}"
	want := "id: e1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n" +
		": a comment\n" +
		"id: e2\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[]}}\n\r\n" +
		"id: e3\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"late\":true}}\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}"
	for _, cut := range []struct {
		name string
		r    func(io.Reader) io.Reader
	}{
		{"whole", func(r io.Reader) io.Reader { return r }},
		{"byte by byte", iotest.OneByteReader},
		{"halves", iotest.HalfReader},
	} {
		t.Run(cut.name, func(t *testing.T) {
			rec := newRecorder()
			cl := &claim{rec: rec}
			rec.register(cl, "n:3")
			e := &eventStub{body: io.NopCloser(cut.r(strings.NewReader(stream))), rec: rec}
			got, err := io.ReadAll(e)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Errorf("the SDK got\n%q\nwant\n%q", got, want)
			}
			resp, err := rec.result(cl)
			if err != nil || resp == nil || string(resp.Message) != strings.ReplaceAll(answer, `"id":3,"result"`, "\"id\":3,\n\"result\"") {
				t.Errorf("recorded %v %v", resp, err)
			}
		})
	}
}

// A malformed line ends go-sdk's reading of the stream: from there on the
// bytes pass through untouched and nothing more is recorded.
func TestEventStubMalformed(t *testing.T) {
	stream := "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\nno colon here\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n\n"
	rec := newRecorder()
	cl := &claim{rec: rec}
	rec.register(cl, "n:1")
	rec.register(cl, "n:2")
	got, err := io.ReadAll(&eventStub{body: io.NopCloser(strings.NewReader(stream)), rec: rec})
	if err != nil || string(got) != stream {
		t.Fatalf("got %q, %v", got, err)
	}
	if resp, _ := rec.result(cl); resp != nil {
		t.Errorf("recorded %s from a broken stream", resp.Message)
	}
	// An event ended before the malformed line still counts.
	stream = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\nnonsense\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n\n"
	rec = newRecorder()
	first, second := &claim{rec: rec}, &claim{rec: rec}
	rec.register(first, "n:1")
	rec.register(second, "n:2")
	if got, err := io.ReadAll(&eventStub{body: io.NopCloser(strings.NewReader(stream)), rec: rec}); err != nil || !strings.Contains(string(got), "nonsense\ndata: {\"jsonrpc\":\"2.0\",\"id\":2") {
		t.Fatalf("got %q, %v", got, err)
	}
	if resp, _ := rec.result(first); resp == nil {
		t.Error("the event before the malformed line was not recorded")
	}
	if resp, _ := rec.result(second); resp != nil {
		t.Errorf("recorded %s after the malformed line", resp.Message)
	}
}

// Events are cut as go-sdk v1.8.0 cuts them: comments and other event
// names are skipped, data lines are trimmed and joined with "\n", "\r\n"
// ends a line, and an event at the end of the stream counts without its
// empty line.
func TestEventStubCutsEventsAsTheSDK(t *testing.T) {
	stream := "id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n" +
		": comment\n\n" +
		"event: ping\ndata: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}\n\n" +
		"data:  {\"jsonrpc\":\"2.0\",\"id\":2,\ndata: \"result\":{}}  \r\n\r\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"last\":true}}"
	want := map[string]string{
		"n:1": `{"jsonrpc":"2.0","id":1,"result":{}}`,
		"n:2": "{\"jsonrpc\":\"2.0\",\"id\":2,\n\"result\":{}}",
		"n:3": `{"jsonrpc":"2.0","id":3,"result":{"last":true}}`,
		"n:4": "", // an event named ping is not a message
	}
	rec := newRecorder()
	claims := map[string]*claim{}
	for key := range want {
		claims[key] = &claim{rec: rec}
		rec.register(claims[key], key)
	}
	if _, err := io.ReadAll(&eventStub{body: io.NopCloser(iotest.OneByteReader(strings.NewReader(stream))), rec: rec}); err != nil {
		t.Fatal(err)
	}
	for key, msg := range want {
		resp, err := rec.result(claims[key])
		got := ""
		if resp != nil {
			got = string(resp.Message)
		}
		if err != nil || got != msg {
			t.Errorf("%s: recorded %q, %v; want %q", key, got, err, msg)
		}
	}
}
