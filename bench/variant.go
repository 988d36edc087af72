package bench

import (
	"fmt"
	"strings"

	"github.com/electgo/elect/algo"
)

// An algorithm of a sweep is a name, or a variant of one: the name and
// parameters of its own, NAME:PARAM=VALUE[:PARAM=VALUE...], such as
// vkt:medium=broadcast, so that one sweep compares an algorithm with its
// variants (unicast and broadcast vkt side by side). A variant's own
// parameters win over the sweep's (Sweep.Params).

// Variant reads an algorithm of a sweep: the registered algorithm and the
// variant's own parameters (nil for a plain name), checked against it.
func Variant(spec string) (*algo.Algorithm, map[string]string, error) {
	name, rest, has := strings.Cut(spec, ":")
	a, err := algo.Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	if !has {
		return a, nil, nil
	}
	params := map[string]string{}
	for _, kv := range strings.Split(rest, ":") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, nil, fmt.Errorf("%q: want NAME:PARAM=VALUE[:PARAM=VALUE...], e.g. vkt:medium=broadcast", spec)
		}
		params[k] = v
	}
	if _, err := a.Resolve(params); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", spec, err)
	}
	return a, params, nil
}
