// Package par runs independent jobs in parallel with a deterministic result.
package par

import (
	"runtime"
	"sync"
)

// Do calls fn(i) for every i in [0, n) on up to workers goroutines (0: one
// per core) and waits for all of them. It returns the error of the lowest i
// that failed, so the outcome does not depend on scheduling.
func Do(n, workers int, fn func(i int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
