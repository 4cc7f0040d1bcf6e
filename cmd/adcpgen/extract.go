package main

// runExtract is owned by its own file so the command can grow independently.
func runExtract(e *env, args []string) int {
	return usageError(e, "extract", "not implemented yet")
}
