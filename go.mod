module github.com/adcpgen/adcpgen

go 1.26.0

require (
	github.com/a2aproject/a2a-go v0.3.3 // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
