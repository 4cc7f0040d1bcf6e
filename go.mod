module github.com/adcpgen/adcpgen

go 1.26.0

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
