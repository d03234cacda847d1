module github.com/attpool/attpool/verifier/oracle

go 1.26.8

require (
	github.com/attpool/attpool v0.0.0
	github.com/consensys/gnark-crypto v0.22.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/bits-and-blooms/bitset v1.25.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/supranational/blst v0.3.17 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

replace github.com/attpool/attpool => ../../
