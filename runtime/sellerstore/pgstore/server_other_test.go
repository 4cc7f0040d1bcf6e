//go:build !unix

package pgstore_test

import "errors"

type server struct{ dsn string }

func startServer() (*server, error) {
	return nil, errors.New("starting a throwaway PostgreSQL needs a unix system; set ADCPGEN_TEST_PG")
}

func (s *server) stop() error { return nil }
