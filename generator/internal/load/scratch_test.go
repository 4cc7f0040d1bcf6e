package load
import ("testing";"time";"github.com/adcpgen/adcpgen/runtime/spec";"github.com/adcpgen/adcpgen/internal/testspec")
func TestScratchLoad(t *testing.T){
	for _, v := range testspec.Versions {
		t0:=time.Now()
		tr, err := spec.Open(testspec.Path(t, v.Source)); if err != nil { t.Fatal(err) }
		s, err := Load(tr)
		if err != nil { t.Errorf("%s: %v", v.Version, err); continue }
		t.Logf("%s: %d docs, %d skipped %v", v.Version, len(s.Docs), len(s.Skipped), time.Since(t0))
		for _, k := range s.Skipped { if k.Path[:4]!="core" {t.Logf("  skip %s: %s", k.Path, k.Reason)} }
	}
}
