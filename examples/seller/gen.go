package main

// The bindings of the three releases this seller serves are generated,
// never committed (see .gitignore), and so is the spec data it embeds.
//
// 3.0.26, published as a bundle: adcpgen runs through the tool directive in
// go.mod, finds the version in $ADCP_CACHE or downloads it from
// $ADCP_MIRROR, and refuses a bundle whose checksum differs from the one
// adcp.lock pins; the bundle is cached into specdata/3.0.26/.
//
// 3.1.19 and 3.2.0-beta.5, published as schema trees only (no bundle, no
// lock entry): generated from $ADCP_SPEC_DIR/schemas/VERSION, and each
// tree copied into specdata/VERSION/ to be embedded. run.sh does it all.
//
//go:generate go tool adcpgen generate --spec 3.0.26 --out ./adcp --package adcp
//go:generate go tool adcpgen fetch 3.0.26 --cache ./specdata --lock adcp.lock
//go:generate go tool adcpgen generate --spec $ADCP_SPEC_DIR/schemas/3.1.19 --out ./adcp31 --package adcp31
//go:generate sh -c "rm -rf specdata/3.1.19 && mkdir -p specdata/3.1.19 && cp -R $ADCP_SPEC_DIR/schemas/3.1.19/. specdata/3.1.19/"
//go:generate go tool adcpgen generate --spec $ADCP_SPEC_DIR/schemas/3.2.0-beta.5 --out ./adcp32 --package adcp32
//go:generate sh -c "rm -rf specdata/3.2.0-beta.5 && mkdir -p specdata/3.2.0-beta.5 && cp -R $ADCP_SPEC_DIR/schemas/3.2.0-beta.5/. specdata/3.2.0-beta.5/"
