.PHONY: gen-cost

# gen-cost: what the generated bindings cost a downstream build. Generates
# 3.0.26, 3.1.19, 3.2.0-beta.3 and 3.2.0-beta.5 from $(SPEC_DIR) into temporary modules,
# builds each generated package with a cache holding only its dependencies,
# and prints lines, generation time, build wall and CPU time, peak RSS and
# the size of a small program decoding one get_products response.
gen-cost:
	$(GO) run ./internal/gencost -spec $(SPEC_DIR) $(GENCOST_VERSIONS)
