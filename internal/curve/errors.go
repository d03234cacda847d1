package curve

import (
	"errors"
	"fmt"
)

// Errors of the digit rounds' input checks, wrapped with context; test for
// them with [errors.Is].
var (
	// ErrInvalidLength: digit slices of another length than the points.
	ErrInvalidLength = errors.New("attpool/curve: invalid length")
	// ErrInvalidArgument: a nil point or a digit not below 13.
	ErrInvalidArgument = errors.New("attpool/curve: invalid argument")
	// ErrInfinity: the point at infinity where the formulas exclude it.
	ErrInfinity = errors.New("attpool/curve: point at infinity")
)

// wrapf returns err with the formatted context after it.
func wrapf(err error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{err}, args...)...)
}

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
