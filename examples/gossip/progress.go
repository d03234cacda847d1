package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progress draws a one-line progress bar for a long step on a terminal:
//
//	signing     [=========>          ]  48%   3,932/8,192  1.1s  eta 1.2s
//
// It redraws the line (carriage return, no newline) a few times a second
// from its own goroutine; Add is safe from any goroutine and cheap (one
// atomic add). Done draws the final state and ends the line. On a writer
// that is not a terminal, or a nil one, nothing is drawn: the step lines
// the program logs say the same in a form that suits a log file.
type progress struct {
	w     io.Writer // nil: draw nothing
	label string
	total int64
	start time.Time
	n     atomic.Int64
	stop  chan struct{}
	done  sync.WaitGroup
}

// barWidth is the number of cells of the bar.
const barWidth = 24

// newProgress starts a bar for total units of work drawn on w (nil: none).
func newProgress(w io.Writer, label string, total int) *progress {
	p := &progress{w: w, label: label, total: int64(total), start: time.Now(), stop: make(chan struct{})}
	if w == nil {
		return p
	}
	p.done.Go(func() {
		t := time.NewTicker(150 * time.Millisecond)
		defer t.Stop()
		for {
			p.draw(false)
			select {
			case <-t.C:
			case <-p.stop:
				return
			}
		}
	})
	return p
}

// Add records n more units done.
func (p *progress) Add(n int) { p.n.Add(int64(n)) }

// Done stops the redraws, draws the final state and ends the line.
func (p *progress) Done() {
	if p.w == nil {
		return
	}
	close(p.stop)
	p.done.Wait()
	p.draw(true)
}

func (p *progress) draw(final bool) {
	n, total := p.n.Load(), p.total
	elapsed := time.Since(p.start)
	frac := 1.0
	if total > 0 {
		frac = min(1, float64(n)/float64(total))
	}
	cells := int(frac * barWidth)
	bar := strings.Repeat("=", cells)
	if cells < barWidth {
		bar += ">" + strings.Repeat(" ", barWidth-cells-1)
	}
	eta := ""
	switch {
	case final:
		eta = "done"
	case n > 0 && n < total:
		rest := time.Duration(float64(elapsed) * float64(total-n) / float64(n))
		eta = "eta " + seconds(rest)
	}
	end := ""
	if final {
		end = "\n"
	}
	// \r returns to the start of the line, \x1b[K clears what a longer
	// previous draw left.
	fmt.Fprintf(p.w, "\r%-12s [%s] %3.0f%% %9s/%s  %s  %s\x1b[K%s",
		p.label, bar, 100*frac, group(int(n)), group(int(total)), seconds(elapsed), eta, end)
}

// seconds formats d as seconds with one decimal ("1.2s").
func seconds(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }

// terminal reports whether f is a terminal (a character device: a tty, or
// /dev/null, where drawing does no harm).
func terminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
