package adhoc

import (
	"encoding/binary"
	"fmt"

	"github.com/electgo/elect/algo"
)

// Saved is what a node of an ad hoc algorithm keeps for a recovery (the
// documents' "recovery" resumes it, as a merge): its leader, the last
// computation it took part in and the highest computation number it has
// seen, so that a recovered node never reuses an index.
type Saved struct {
	Leader algo.Peer // NoPeer: none
	Src    algo.Index
	Num    uint32
}

// savedLen is the size of Saved as bytes: leader id and value, computation
// number and id, highest number.
const savedLen = 4 + 8 + 4 + 4 + 4

// Bytes encodes s, big-endian, field by field.
func (s Saved) Bytes() []byte {
	b := make([]byte, 0, savedLen)
	b = binary.BigEndian.AppendUint32(b, uint32(s.Leader.ID))
	b = binary.BigEndian.AppendUint64(b, uint64(s.Leader.Value))
	b = binary.BigEndian.AppendUint32(b, s.Src.Num)
	b = binary.BigEndian.AppendUint32(b, uint32(s.Src.ID))
	return binary.BigEndian.AppendUint32(b, s.Num)
}

// ReadSaved decodes what Bytes encoded.
func ReadSaved(b []byte) (Saved, error) {
	if len(b) != savedLen {
		return Saved{}, fmt.Errorf("saved state has %d bytes, want %d", len(b), savedLen)
	}
	id := func(b []byte) algo.NodeID { return algo.NodeID(int32(binary.BigEndian.Uint32(b))) }
	return Saved{
		Leader: algo.Peer{ID: id(b), Value: int64(binary.BigEndian.Uint64(b[4:]))},
		Src:    algo.Index{Num: binary.BigEndian.Uint32(b[12:]), ID: id(b[16:])},
		Num:    binary.BigEndian.Uint32(b[20:]),
	}, nil
}
