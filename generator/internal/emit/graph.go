package emit

// components returns the strongly connected components of the graph of
// nodes and their successors (edges) in Tarjan's order: a component comes
// after every component it reaches, so a dependency comes before what
// uses it. Nodes are visited in the order given, which makes the result
// deterministic.
func components[N comparable](nodes []N, edges func(N) []N) [][]N {
	index := map[N]int{}
	low := map[N]int{}
	onStack := map[N]bool{}
	var stack []N
	var out [][]N
	next := 1
	var visit func(n N)
	visit = func(n N) {
		index[n], low[n] = next, next
		next++
		stack = append(stack, n)
		onStack[n] = true
		for _, e := range edges(n) {
			switch {
			case index[e] == 0:
				visit(e)
				low[n] = min(low[n], low[e])
			case onStack[e]:
				low[n] = min(low[n], index[e])
			}
		}
		if low[n] == index[n] {
			var comp []N
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				comp = append(comp, top)
				if top == n {
					break
				}
			}
			out = append(out, comp)
		}
	}
	for _, n := range nodes {
		if index[n] == 0 {
			visit(n)
		}
	}
	return out
}
