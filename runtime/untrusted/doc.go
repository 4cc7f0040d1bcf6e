// Package untrusted makes seller-controlled input safe to show or follow:
// it strips hiding and reordering characters from strings, truncates them
// on UTF-8 boundaries, and checks seller URLs against the seller's domain.
//
// Every string an AdCP seller sends (an error's message, suggestion, field
// and details; a FilePart's URI) may carry instructions aimed at the
// buyer's model. Route decisions through codes and recovery classes only,
// and pass seller text through Sanitize or SanitizeTruncate before it
// reaches a person or a model.
package untrusted
