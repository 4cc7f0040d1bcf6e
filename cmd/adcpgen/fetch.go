package main

// runFetch is owned by its own file so the command can grow independently.
func runFetch(e *env, args []string) int {
	return usageError(e, "fetch", "not implemented yet")
}
