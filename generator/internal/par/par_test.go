package par

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

func TestDoRunsEveryJobAndReturnsTheLowestError(t *testing.T) {
	var ran atomic.Int64
	err := Do(100, 4, func(i int) error {
		ran.Add(1)
		if i == 70 || i == 30 {
			return fmt.Errorf("job %d", i)
		}
		return nil
	})
	if ran.Load() != 100 || err == nil || err.Error() != "job 30" {
		t.Fatalf("ran %d, err %v", ran.Load(), err)
	}
	if err := Do(0, 0, func(int) error { return errors.New("never") }); err != nil {
		t.Fatal(err)
	}
}
