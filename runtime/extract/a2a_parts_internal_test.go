package extract

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The artifacts and parts read once (artifactData) give what the lookups
// in turn gave: the data a final task's answer takes, and the first
// adcp_error's path.
func refData(task a2aTask) (wire.Lenient, string) {
	i, last := -1, -1
	var lastData wire.Lenient
	task.artifacts.Index(0).Get("parts").Elems(func(p wire.Lenient) bool {
		i++
		if d := dataPart(p); d != nil {
			lastData, last = d, i
		}
		return true
	})
	if lastData == nil {
		return nil, ""
	}
	return lastData, "artifacts[0].parts[" + strconv.Itoa(last) + "].data"
}

func refErrorPath(task a2aTask) string {
	path := ""
	ai := -1
	task.artifacts.Elems(func(a wire.Lenient) bool {
		ai++
		pi := -1
		a.Get("parts").Elems(func(p wire.Lenient) bool {
			pi++
			if ae := dataPart(p).Get("adcp_error"); ae.Truthy() {
				path = fmt.Sprintf("artifacts[%d].parts[%d]", ai, pi)
			}
			return path == ""
		})
		return path == ""
	})
	return path
}

func checkArtifactData(t *testing.T, doc []byte) {
	v, err := wire.ParseLenient(doc)
	if err != nil {
		return
	}
	task := readTask(v)
	arts := task.artifactData()
	var data wire.Lenient
	path := ""
	if len(arts) > 0 {
		for i, d := range arts[0] {
			if d != nil {
				data, path = d, "artifacts[0].parts["+strconv.Itoa(i)+"].data"
			}
		}
	}
	if wantData, wantPath := refData(task); string(data) != string(wantData) || path != wantPath {
		t.Fatalf("%s: data %s at %q, want %s at %q", doc, data, path, wantData, wantPath)
	}
	errPath := ""
	for ai, parts := range arts {
		for pi, d := range parts {
			if errPath == "" && d.Get("adcp_error").Truthy() {
				errPath = fmt.Sprintf("artifacts[%d].parts[%d]", ai, pi)
			}
		}
	}
	if want := refErrorPath(task); errPath != want {
		t.Fatalf("%s: adcp_error at %q, want %q", doc, errPath, want)
	}
}

func TestArtifactData(t *testing.T) {
	for _, doc := range []string{
		`{}`, `{"artifacts":[]}`, `{"artifacts":{}}`, `{"artifacts":[1,{"parts":[{"data":{"a":1}}]}]}`,
		`{"artifacts":[{"parts":[{"kind":"text","text":"x"},{"data":{"a":1}},{"data":[1]},{"data":{"b":2}},"x"]},{"parts":[{"data":{"adcp_error":{"code":"X"}}}]}]}`,
		`{"artifacts":[{"parts":[{"data":{"adcp_error":false}},{"data":{"adcp_error":{}}}]}],"artifacts":[{"parts":[]}]}`,
	} {
		checkArtifactData(t, []byte(doc))
	}
}

func FuzzArtifactData(f *testing.F) {
	f.Add([]byte(`{"status":{"state":"completed"},"artifacts":[{"parts":[{"kind":"data","data":{"adcp_error":{"code":"X","message":"m"}}}]}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) { checkArtifactData(t, doc) })
}
