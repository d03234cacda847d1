package benchplot

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/attpool/attpool/examples/internal/benchreport"
)

// ErrNoReport: the folder holds no report this package draws.
var ErrNoReport = errors.New("no " + LatencyJSON + " in the folder (write one with go run -trimpath ./examples/gossip -latency -report DIR)")

// Charts draws the charts of the reports in dir (LatencyJSON) as PNG files
// beside them and returns the paths written.
func Charts(dir string) ([]string, error) {
	path := filepath.Join(dir, LatencyJSON)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoReport
	}
	f, err := benchreport.ReadJSON[LatencyReport](path)
	if err != nil {
		return nil, err
	}
	var written []string
	err = LatencyCharts(f, func(name string, draw func(io.Writer) error) error {
		p := filepath.Join(dir, name)
		if err := benchreport.WriteFile(p, draw); err != nil {
			return err
		}
		written = append(written, p)
		return nil
	})
	return written, err
}
