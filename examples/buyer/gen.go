package main

// The bindings are generated, never committed (see .gitignore). adcpgen
// runs through the tool directive in go.mod; it finds version 3.0.26 in
// $ADCP_CACHE, or downloads it from $ADCP_MIRROR (default
// https://adcontextprotocol.org), and refuses a bundle whose checksum
// differs from the one adcp.lock pins.
//go:generate go tool adcpgen generate --spec 3.0.26 --out ./adcp --package adcp
