package bench

import "path/filepath"

// MergeFiles reads the results files at paths (the shards of a sweep, say)
// and merges them (Merge); missing names the shards that the files' names
// show to be missing (MissingShards).
func MergeFiles(paths ...string) (merged []*Result, missing []string, err error) {
	var sets [][]*Result
	names := make([]string, len(paths))
	for i, path := range paths {
		rs, err := ReadResults(path)
		if err != nil {
			return nil, nil, err
		}
		sets = append(sets, rs)
		names[i] = filepath.Base(path)
	}
	if merged, err = Merge(sets...); err != nil {
		return nil, nil, err
	}
	return merged, MissingShards(names), nil
}
