//go:build !unix

package jsinterop

import (
	"context"
	"errors"
	"os"
	"time"
)

// lockFile takes an exclusive lock by creating path, waiting until the
// context ends. A lock file left by a crashed process must be removed by
// hand (unix systems use flock, which has no such problem).
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
