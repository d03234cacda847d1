package main

import (
	"bytes"
	"strings"
	"testing"
)

// The charts themselves are drawn from real reports by examples/gossip's
// tests (drawCharts); here, the command's errors.
func TestErrors(t *testing.T) {
	for name, c := range map[string]struct {
		args []string
		code int
		msg  string
	}{
		"no dir":    {nil, 2, "usage: benchcharts DIR"},
		"two dirs":  {[]string{t.TempDir(), t.TempDir()}, 2, "usage: benchcharts DIR"},
		"a flag":    {[]string{"-h"}, 2, "usage: benchcharts DIR"},
		"no report": {[]string{t.TempDir()}, 1, "no latency.json in the folder"},
	} {
		var out, errOut bytes.Buffer
		if code := run(c.args, &out, &errOut); code != c.code || !strings.Contains(errOut.String(), c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", name, code, errOut.String(), c.code, c.msg)
		}
	}
}
