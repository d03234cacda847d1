module github.com/attpool/attpool/spectest

go 1.25.0

require (
	github.com/attpool/attpool v0.0.0
	github.com/golang/snappy v1.0.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/emicklei/dot v1.6.2 // indirect
	github.com/ferranbt/fastssz v0.1.4 // indirect
	github.com/klauspost/cpuid/v2 v2.0.9 // indirect
	github.com/minio/sha256-simd v1.0.0 // indirect
	github.com/mitchellh/mapstructure v1.3.2 // indirect
	github.com/prysmaticlabs/go-bitfield v0.0.0-20240618144021-706c95b2dd15 // indirect
	github.com/supranational/blst v0.3.17 // indirect
	gopkg.in/yaml.v2 v2.3.0 // indirect
)

replace github.com/attpool/attpool => ../
