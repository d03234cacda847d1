package crypto

import (
	"errors"
	"fmt"
	"strings"

	"github.com/attpool/attpool/internal/curve"
)

// Errors returned by the decoders and constructors of this package. They are
// wrapped with context; test for them with [errors.Is].
var (
	// ErrInvalidLength: an encoding of the wrong size.
	ErrInvalidLength = errors.New("attpool/crypto: invalid length")
	// ErrInvalidEncoding: bad flag bits, a non-canonical coordinate, or a
	// malformed infinity encoding.
	ErrInvalidEncoding = errors.New("attpool/crypto: invalid point encoding")
	// ErrNotOnCurve: the encoded x-coordinate has no point on the curve.
	ErrNotOnCurve = errors.New("attpool/crypto: point not on curve")
	// ErrNotInSubgroup: a curve point outside the prime-order subgroup.
	ErrNotInSubgroup = errors.New("attpool/crypto: point not in subgroup")
	// ErrInfinity: the point at infinity where it is not allowed (public keys).
	ErrInfinity = errors.New("attpool/crypto: point at infinity")
	// ErrInvalidSecretKey: a secret key that is zero or not below the group order.
	ErrInvalidSecretKey = errors.New("attpool/crypto: invalid secret key")
	// ErrEmpty: an aggregation over no inputs.
	ErrEmpty = errors.New("attpool/crypto: empty input")
)

// decodeErr is the sentinel of blst's verdict on an encoding.
func decodeErr(r curve.DecodeResult) error {
	switch r {
	case curve.Decoded:
		return nil
	case curve.PointNotOnCurve:
		return ErrNotOnCurve
	case curve.PointNotInGroup:
		return ErrNotInSubgroup
	case curve.PointIsInfinity:
		return ErrInfinity
	default:
		return ErrInvalidEncoding
	}
}

// wrapError is a sentinel error with context: its message is
// "attpool/crypto: <context>: <sentinel's text without the prefix>", and it
// unwraps to the sentinel.
type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

// wrapf returns err with the formatted context, keeping the package prefix
// first.
func wrapf(err error, format string, args ...any) error {
	const prefix = "attpool/crypto: "
	return &wrapError{
		msg: prefix + fmt.Sprintf(format, args...) + ": " + strings.TrimPrefix(err.Error(), prefix),
		err: err,
	}
}
