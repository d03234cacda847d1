package verifier

import (
	"sync"
	"testing"
)

// FuzzVerify drives Verify with set lists decoded from the fuzzer's bytes:
// every 4 bytes make one set (key, root, mutation, argument). The verdicts
// must equal the per-set reference. Signatures come from a small table of
// real signatures (8 keys x 4 roots) so that the fuzzer mostly explores
// valid/invalid mixes rather than undecodable bytes.
func FuzzVerify(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0})
	f.Add([]byte{0, 0, 1, 1, 1, 0, 0, 0, 2, 1, 2, 0, 3, 2, 3, 5})
	f.Add([]byte{0, 0, 4, 0, 1, 1, 5, 9, 2, 2, 6, 0, 3, 3, 7, 1, 4, 0, 0, 0})
	seed := make([]byte, 0, 4*60)
	for i := range 60 {
		seed = append(seed, byte(i), byte(i/16), byte(i%9), byte(i*7))
	}
	f.Add(seed)
	table := fuzzTable(f)
	v, err := New(Config{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(v.Close)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4*200 {
			data = data[:4*200]
		}
		var sets []Set
		for len(data) >= 4 {
			key, root, mut, arg := int(data[0])%8, int(data[1])%4, data[2]%10, data[3]
			data = data[4:]
			s := table.sets[key][root]
			switch mut {
			case 1: // another key's signature over the same root
				s.Signature = table.sets[(key+1+int(arg)%7)%8][root].Signature
			case 2: // the key's signature over another root
				s.Signature = table.sets[key][(root+1+int(arg)%3)%4].Signature
			case 3: // a flipped bit
				s.Signature[int(arg)%96] ^= 1 << (arg % 8)
			case 4: // infinity
				s.Signature = [96]byte{0xc0}
			case 5: // outside G2 by a point of order 13
				s.Signature = table.shifted[key][root]
			case 6: // no key
				s.PublicKey = nil
			case 7: // garbage
				for i := range s.Signature {
					s.Signature[i] = arg + byte(i)
				}
			}
			sets = append(sets, s)
		}
		got := v.Verify(sets)
		exp := want(sets)
		for i := range exp {
			if got[i] != exp[i] {
				t.Fatalf("set %d of %d: verdict %v, alone %v", i, len(sets), got[i], exp[i])
			}
		}
	})
}

type fuzzSigs struct {
	sets    [8][4]Set
	shifted [8][4][96]byte
}

var (
	fuzzOnce sync.Once
	fuzzData fuzzSigs
)

func fuzzTable(tb testing.TB) *fuzzSigs {
	fuzzOnce.Do(func() {
		T := orderThirteen(tb)
		for r := range 4 {
			var root [32]byte
			root[0] = byte(r + 1)
			for k := range 8 {
				fuzzData.sets[k][r] = validSet(tb, k, root)
				fuzzData.shifted[k][r] = shifted(tb, fuzzData.sets[k][r].Signature, &T)
			}
		}
	})
	return &fuzzData
}
