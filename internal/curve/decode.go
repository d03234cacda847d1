package curve

// DecodeResult is blst's verdict on a compressed point (BLST_ERROR in
// blst.h): [Decoded] or the reason the encoding was refused.
type DecodeResult int

// The decoding results blst returns.
const (
	Decoded         DecodeResult = 0 // BLST_SUCCESS
	BadEncoding     DecodeResult = 1 // BLST_BAD_ENCODING: flags, non-canonical x
	PointNotOnCurve DecodeResult = 2 // BLST_POINT_NOT_ON_CURVE
	PointNotInGroup DecodeResult = 3 // BLST_POINT_NOT_IN_GROUP
	PointIsInfinity DecodeResult = 6 // BLST_PK_IS_INFINITY
)
