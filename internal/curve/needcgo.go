package curve

// The curve package needs cgo (blst and the digit rounds are C); this
// import fails a build without cgo with a message that says so.
import _ "github.com/attpool/attpool/internal/needcgo"
