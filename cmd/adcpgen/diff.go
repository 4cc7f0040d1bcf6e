package main

// runDiff is owned by its own file so the command can grow independently.
func runDiff(e *env, args []string) int {
	return usageError(e, "diff", "not implemented yet")
}
