package main

// The bindings are generated, never committed (see .gitignore). adcpgen
// runs through the tool directive in go.mod; it finds version 3.0.26 in
// $ADCP_CACHE, or downloads it from $ADCP_MIRROR (default
// https://adcontextprotocol.org), and refuses a bundle whose checksum
// differs from the one adcp.lock pins.
//
// The later releases it also speaks, 3.1.19 and 3.2.0-beta.5, are published
// as schema trees only: generated from $ADCP_SPEC_DIR/schemas/VERSION.
//
//go:generate go tool adcpgen generate --spec 3.0.26 --out ./adcp --package adcp
//go:generate go tool adcpgen generate --spec $ADCP_SPEC_DIR/schemas/3.1.19 --out ./adcp31 --package adcp31
//go:generate go tool adcpgen generate --spec $ADCP_SPEC_DIR/schemas/3.2.0-beta.5 --out ./adcp32 --package adcp32
