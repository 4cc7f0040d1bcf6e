// Package task holds what buyers and sellers share about one call of an AdCP
// tool: the task status vocabulary, the typed descriptor a generated package
// declares for each tool (Tool), and the typed outcome of a call (Result).
//
// A generated package exports one descriptor per tool in its Tools value and
// an alias per tool for the Result it yields:
//
//	adcp.Tools.CreateMediaBuy // task.Tool[CreateMediaBuyRequest, CreateMediaBuyResponse, CreateMediaBuySubmitted, ...]
//	adcp.CreateMediaBuyResult // = task.Result[CreateMediaBuyResponse, CreateMediaBuySubmitted, ...]
//
// The buyer (runtime/buyer) and the seller (runtime/seller) take these
// descriptors, so the request, response and interim payload types of a call
// are checked by the compiler, and nothing in a signature is untyped.
//
// The package depends on the standard library only, so every generated
// package can import it without growing the programs that use it.
package task
