//go:build !adcpgen_bench

package main

import "errors"

func run([]string) error {
	return errors.New("built without the adcpgen_bench tag: run make bench-load (it generates the 3.0.26 package first)")
}
