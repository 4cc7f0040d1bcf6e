package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"sync"

	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// extractSpec builds the spec errors are classified with: the embedded
// core spec (generated/adcp's, every standard code) joined with the manifests of the --spec sources, else
// $ADCP_SPEC, else everything under $ADCP_SPEC_DIR.
func extractSpec(e *env, specs []string) (*registry.Spec, error) {
	explicit := true
	sources := specs
	if len(sources) == 0 {
		if s := e.getenv("ADCP_SPEC"); s != "" {
			sources = []string{s}
		} else if dir := e.getenv("ADCP_SPEC_DIR"); dir != "" {
			explicit = false
			var err error
			if sources, err = extractSpecDirSources(dir); err != nil {
				return nil, err
			}
		}
	}
	var manifests []*registry.Manifest
	var names []string
	for _, src := range sources {
		m, err := extractManifest(src)
		if errors.Is(err, registry.ErrNoManifest) {
			if explicit {
				fmt.Fprintf(e.stderr, "adcpgen extract: note: %v; using the embedded error codes for it\n", err)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		manifests, names = append(manifests, m), append(names, src)
	}
	return joinManifests(adcp.Spec(), manifests, names)
}

// joinManifests returns core with the manifests' error codes and
// unknown-code policy over its own. Manifests must agree with each other
// (the spec never moves a code between classes); a disagreement is an
// error naming the code and both sources.
func joinManifests(core *registry.Spec, manifests []*registry.Manifest, names []string) (*registry.Spec, error) {
	if len(manifests) == 0 {
		return core, nil
	}
	byCode := map[string]registry.ErrorCode{}
	from := map[string]string{}
	var unknown registry.Recovery
	unknownFrom := ""
	for i, m := range manifests {
		for _, c := range m.Codes {
			if prev, ok := byCode[c.Code]; ok && prev.Recovery != c.Recovery {
				return nil, fmt.Errorf("error code %s is %s in %s but %s in %s", c.Code, prev.Recovery, from[c.Code], c.Recovery, names[i])
			}
			byCode[c.Code], from[c.Code] = c, names[i]
		}
		if u := m.UnknownRecovery; u != "" {
			if unknown != "" && unknown != u {
				return nil, fmt.Errorf("default_unknown_recovery is %s in %s but %s in %s", unknown, unknownFrom, u, names[i])
			}
			unknown, unknownFrom = u, names[i]
		}
	}
	for _, c := range core.Codes() {
		if _, ok := byCode[c.Code]; !ok {
			byCode[c.Code] = c
		}
	}
	if unknown == "" {
		unknown = core.UnknownRecovery()
	}
	codes := make(registry.ErrorCodes, 0, len(byCode))
	for _, c := range byCode {
		codes = append(codes, c)
	}
	return registry.NewSpec(registry.SpecConfig{Version: core.Version(), Codes: codes, UnknownRecovery: unknown,
		NewDetails: core.NewDetails}), nil
}

// extractManifests caches each source's manifest: opening a bundle means
// verifying and unpacking it, and tests run the command many times in one
// process.
var extractManifests struct {
	sync.Mutex
	bySource map[string]extractManifestEntry
}

type extractManifestEntry struct {
	manifest *registry.Manifest
	err      error
}

func extractManifest(src string) (*registry.Manifest, error) {
	extractManifests.Lock()
	defer extractManifests.Unlock()
	if m, ok := extractManifests.bySource[src]; ok {
		return m.manifest, m.err
	}
	tree, err := spec.Open(src)
	if err != nil {
		return nil, err // not cached: the source may appear later
	}
	m, err := registry.LoadManifest(tree.FS, src)
	if extractManifests.bySource == nil {
		extractManifests.bySource = map[string]extractManifestEntry{}
	}
	extractManifests.bySource[src] = extractManifestEntry{m, err}
	return m, err
}

// extractSpecDirSources lists the spec sources of an $ADCP_SPEC_DIR:
// protocol/*.tgz bundles and schemas/* trees that have a manifest.
func extractSpecDirSources(dir string) ([]string, error) {
	bundles, err := filepath.Glob(filepath.Join(dir, "protocol", "*.tgz"))
	if err != nil {
		return nil, err
	}
	manifests, err := filepath.Glob(filepath.Join(dir, "schemas", "*", registry.ManifestName))
	if err != nil {
		return nil, err
	}
	sources := bundles
	for _, m := range manifests {
		sources = append(sources, filepath.Dir(m))
	}
	sort.Strings(sources)
	if len(sources) == 0 {
		return nil, fmt.Errorf("$ADCP_SPEC_DIR %s holds no protocol/*.tgz or schemas/*/manifest.json", dir)
	}
	return sources, nil
}
