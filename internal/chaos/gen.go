package main

// The 3.0.26 bindings the buyers call with are generated, never committed
// (see .gitignore): adcpgen runs through the tool directive in go.mod,
// finds the version in $ADCP_CACHE or downloads it from $ADCP_MIRROR, and
// refuses a bundle whose checksum differs from the one adcp.lock pins.
// run.sh does it.
//go:generate go tool adcpgen generate --spec 3.0.26 --out ./adcp --package adcp
