//go:build !cgo

package needcgo

// Without cgo, blst's bindings do not compile either ("undefined: Message"
// in blst's rb_tree.go); this error names the cause and the fix.
const _ = attpool_needs_cgo__set_CGO_ENABLED_1_and_put_a_C_compiler_gcc_or_clang_on_PATH
