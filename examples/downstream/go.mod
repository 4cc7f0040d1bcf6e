module example.com/downstream

go 1.26.0

tool github.com/adcpgen/adcpgen/cmd/adcpgen

require github.com/adcpgen/adcpgen v0.0.0-00010101000000-000000000000

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1 // indirect
)

replace github.com/adcpgen/adcpgen => ../..
