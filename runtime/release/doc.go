// Package release holds AdCP's version negotiation rules, once, for the
// seller and the buyer (versioning.mdx, "Version negotiation"): releases
// at the precision the wire carries ("3.1", "3.2-beta.5"; FromWire, and Of
// for a published version such as 3.2.0-beta.5), and the resolution of a
// request's adcp_version and adcp_major_version against the releases a
// seller speaks (Set.Resolve), whose refusal is the typed details of
// VERSION_UNSUPPORTED (Unsupported).
//
// runtime/seller resolves every call with it and echoes the release it
// served as adcp_version; runtime/buyer sends its pin and reads the echo.
package release
