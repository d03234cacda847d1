// Package needcgo stops a build without cgo with a message that says why:
// packages crypto and internal/curve are built on blst (C) and on C digit
// rounds, which need cgo and a C compiler. With cgo on it is empty.
package needcgo
