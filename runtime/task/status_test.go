package task

import "testing"

func TestStatusClasses(t *testing.T) {
	for _, tc := range []struct {
		s                     Status
		known, interim, final bool
	}{
		{Submitted, true, true, false},
		{Working, true, true, false},
		{InputRequired, true, true, false},
		{AuthRequired, true, true, false},
		{Completed, true, false, true},
		{Failed, true, false, true},
		{Canceled, true, false, true},
		{Rejected, true, false, true},
		{Unknown, true, false, false},
		{"cancelled", false, false, false},
		{"", false, false, false},
	} {
		if got := tc.s.Known(); got != tc.known {
			t.Errorf("%q.Known() = %v", tc.s, got)
		}
		if got := tc.s.Interim(); got != tc.interim {
			t.Errorf("%q.Interim() = %v", tc.s, got)
		}
		if got := tc.s.Final(); got != tc.final {
			t.Errorf("%q.Final() = %v", tc.s, got)
		}
	}
	if n := len(Statuses()); n != 9 {
		t.Errorf("Statuses() has %d entries, want 9", n)
	}
}

func TestToolDescriptor(t *testing.T) {
	tool := NewTool[struct{ Q int }, struct{ R int }, None, None, None]("get_products", "3.0.26")
	if tool.Name() != "get_products" || tool.Version() != "3.0.26" {
		t.Errorf("got %q %q", tool.Name(), tool.Version())
	}
}
