// Package adcperr is the AdCP application error, the adcp_error object, as
// buyers receive it and sellers send it: its fields, its recovery class,
// the Action a buyer takes, the checks a buyer applies before trusting one,
// and its wire form.
//
// Recovery classes are registry.Recovery values, the same type a generated
// package's Spec uses for its error-code table. Every string in an Error is
// seller-controlled: decide by Code and Recovery only (Action does), and
// show text through SafeMessage, SafeSuggestion, SafeField or LLMContext.
package adcperr
