package main

func runGenerate(e *env, args []string) int {
	return usageError(e, "generate", "not implemented yet")
}
