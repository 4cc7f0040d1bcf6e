package main

// runValidate is owned by its own file so the command can grow independently.
func runValidate(e *env, args []string) int {
	return usageError(e, "validate", "not implemented yet")
}
