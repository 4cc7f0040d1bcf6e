package main

// The bindings of a version published only as a schema tree (3.1.19,
// 3.2.0-beta.5) are generated from the tree (--spec DIR), never committed
// (see .gitignore), and the tree is copied into specdata/ to be embedded
// (agent.go) for Options.Schemas. ADCP_TREE is the tree's directory, say
// ../shared/adcp/schemas/3.1.19; run.sh sets it.
//
//go:generate go tool adcpgen generate --spec $ADCP_TREE --out ./adcp --package adcp
//go:generate sh -c "rm -rf specdata && mkdir specdata && cp -R $ADCP_TREE/. specdata/"
