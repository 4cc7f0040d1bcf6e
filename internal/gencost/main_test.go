package main

import (
	"testing"

	"github.com/adcpgen/adcpgen/generator"
)

func TestGetProductsType(t *testing.T) {
	root := "// Schema: https://adcontextprotocol.org/schemas/3.0.26/media-buy/get-products-response.json# (\"Get Products Response\"), digest 0a1b\ntype GetProductsResponse struct {\n"
	nested := "// Schema: https://adcontextprotocol.org/schemas/3.0.26/media-buy/get-products-response.json#/properties/x\ntype GetProductsResponseX struct {\n"
	cases := []struct {
		name  string
		files []string
		want  string
	}{
		{"root after a nested type", []string{nested + "}\n" + root}, "GetProductsResponse"},
		{"the schema line last", []string{"// Renamed is it.\n//\n// Schema: /schemas/9/media-buy/get-products-response.json#\ntype Renamed struct{}\n"}, "Renamed"},
		{"none", []string{nested}, ""},
	}
	for _, c := range cases {
		var files []generator.File
		for _, f := range c.files {
			files = append(files, generator.File{Name: "a_gen.go", Data: []byte(f)})
		}
		got, err := getProductsType(files)
		if got != c.want || (err != nil) != (c.want == "") {
			t.Errorf("%s: got %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
