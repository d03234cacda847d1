package ssz

// SigningData is the SSZ container whose hash tree root is the signing root
// of an object: the message that a consensus signature signs.
//
// The zero value is a valid SigningData with an all-zero object root and
// domain.
type SigningData struct {
	ObjectRoot [32]byte `ssz-size:"32"`
	Domain     [32]byte `ssz-size:"32"`
}

// ForkData is the SSZ container whose hash tree root (the fork data root)
// binds a domain to a fork version and to one chain's genesis validators
// root.
//
// The zero value is a valid ForkData.
type ForkData struct {
	CurrentVersion        [4]byte  `ssz-size:"4"`
	GenesisValidatorsRoot [32]byte `ssz-size:"32"`
}
